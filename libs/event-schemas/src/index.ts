export { toFieldErrors } from './field-errors';
export { checkDataSchema, checkExample, compileDataSchema } from './data-schema';
export { validateData, validationBudgetMs, DATA_VALIDATION_LIMITS, type DataCheck } from './validate-data';
