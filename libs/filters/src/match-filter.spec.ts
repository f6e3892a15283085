import { flatten } from './flatten';
import { matchFilter } from './match-filter';

const doc = {
  type: 'invoice.paid',
  data: {
    amount: 120,
    currency: 'EUR',
    customer: { id: 'c1', email: 'a@example.com' },
    tags: ['vip', 'eu'],
    items: [
      { sku: 's1', qty: 2 },
      { sku: 's2', qty: 5 },
    ],
    note: null,
  },
  'dotted.key': 'literal',
};

describe('matchFilter', () => {
  it('matches everything with an empty or missing filter', () => {
    expect(matchFilter({}, doc)).toBe(true);
    expect(matchFilter(undefined, doc)).toBe(true);
  });

  it('compares plain values for equality, nested or flattened alike', () => {
    expect(matchFilter({ data: { currency: 'EUR' } }, doc)).toBe(true);
    expect(matchFilter({ 'data.currency': 'EUR' }, doc)).toBe(true);
    expect(matchFilter({ 'data.currency': 'USD' }, doc)).toBe(false);
    expect(matchFilter({ data: { customer: { id: 'c1' } } }, doc)).toBe(true);
  });

  it('does not equate numbers with numeric strings', () => {
    expect(matchFilter({ 'data.amount': '120' }, doc)).toBe(false);
  });

  it('supports $eq and $neq', () => {
    expect(matchFilter({ 'data.amount': { $eq: 120 } }, doc)).toBe(true);
    expect(matchFilter({ 'data.amount': { $neq: 120 } }, doc)).toBe(false);
    expect(matchFilter({ 'data.amount': { $neq: 7 } }, doc)).toBe(true);
  });

  it('compares numbers and strings with $gt $gte $lt $lte, not across types', () => {
    expect(matchFilter({ 'data.amount': { $gt: 100, $lte: 120 } }, doc)).toBe(true);
    expect(matchFilter({ 'data.amount': { $gte: 121 } }, doc)).toBe(false);
    expect(matchFilter({ 'data.amount': { $lt: 121 } }, doc)).toBe(true);
    expect(matchFilter({ 'data.currency': { $gt: 'AAA' } }, doc)).toBe(true);
    expect(matchFilter({ 'data.currency': { $gt: 1 } }, doc)).toBe(false);
  });

  it('supports $in and $nin', () => {
    expect(matchFilter({ 'data.currency': { $in: ['USD', 'EUR'] } }, doc)).toBe(true);
    expect(matchFilter({ 'data.currency': { $in: ['USD'] } }, doc)).toBe(false);
    expect(matchFilter({ 'data.currency': { $nin: ['USD'] } }, doc)).toBe(true);
    expect(matchFilter({ 'data.currency': { $nin: ['EUR'] } }, doc)).toBe(false);
  });

  it('tests membership when a scalar meets an array field', () => {
    expect(matchFilter({ 'data.tags': 'vip' }, doc)).toBe(true);
    expect(matchFilter({ 'data.tags': 'us' }, doc)).toBe(false);
    expect(matchFilter({ 'data.tags': { $in: ['us', 'eu'] } }, doc)).toBe(true);
    expect(matchFilter({ 'data.tags': { $nin: ['eu'] } }, doc)).toBe(false);
    expect(matchFilter({ 'data.tags': ['vip', 'eu'] }, doc)).toBe(true);
  });

  it('reaches into arrays of objects', () => {
    expect(matchFilter({ 'data.items.sku': 's2' }, doc)).toBe(true);
    expect(matchFilter({ 'data.items.qty': { $gt: 4 } }, doc)).toBe(true);
    expect(matchFilter({ 'data.items.qty': { $gt: 5 } }, doc)).toBe(false);
    expect(matchFilter({ 'data.items.0.sku': 's1' }, doc)).toBe(true);
  });

  it('does not match a condition on a missing field, except $exist:false, $neq and $nin', () => {
    expect(matchFilter({ 'data.missing': 1 }, doc)).toBe(false);
    expect(matchFilter({ 'data.missing': { $gt: 0 } }, doc)).toBe(false);
    expect(matchFilter({ 'data.missing': { $in: [1] } }, doc)).toBe(false);
    expect(matchFilter({ 'data.missing': { $regex: '.*' } }, doc)).toBe(false);
    expect(matchFilter({ 'data.missing': { $exist: true } }, doc)).toBe(false);
    expect(matchFilter({ 'data.missing': { $exist: false } }, doc)).toBe(true);
    expect(matchFilter({ 'data.missing': { $neq: 1 } }, doc)).toBe(true);
    expect(matchFilter({ 'data.missing': { $nin: [1] } }, doc)).toBe(true);
  });

  it('treats a present null as existing', () => {
    expect(matchFilter({ 'data.note': { $exist: true } }, doc)).toBe(true);
    expect(matchFilter({ 'data.note': null }, doc)).toBe(true);
  });

  it('supports $regex on strings and string arrays', () => {
    expect(matchFilter({ 'data.customer.email': { $regex: '@example\\.com$' } }, doc)).toBe(true);
    expect(matchFilter({ 'data.customer.email': { $regex: '^b' } }, doc)).toBe(false);
    expect(matchFilter({ 'data.tags': { $regex: '^v' } }, doc)).toBe(true);
    expect(matchFilter({ 'data.amount': { $regex: '1' } }, doc)).toBe(false);
  });

  it('supports $or and $and, also nested under a field', () => {
    expect(matchFilter({ $or: [{ 'data.currency': 'USD' }, { 'data.amount': 120 }] }, doc)).toBe(true);
    expect(matchFilter({ $or: [{ 'data.currency': 'USD' }, { 'data.amount': 1 }] }, doc)).toBe(false);
    expect(matchFilter({ $and: [{ 'data.currency': 'EUR' }, { 'data.amount': { $gt: 1 } }] }, doc)).toBe(
      true,
    );
    expect(matchFilter({ $and: [{ 'data.currency': 'EUR' }, { 'data.amount': 1 }] }, doc)).toBe(false);
    const nested = { data: { $or: [{ currency: 'USD' }, { customer: { id: 'c1' } }] } };
    expect(matchFilter(nested, doc)).toBe(true);
    expect(matchFilter(flatten(nested), doc)).toBe(true);
  });

  it('prefers a literal dotted key over nesting', () => {
    expect(matchFilter({ 'dotted.key': 'literal' }, doc)).toBe(true);
  });

  it('never matches an unknown operator', () => {
    expect(matchFilter({ 'data.amount': { $foo: 1 } }, doc)).toBe(false);
  });

  it('matches non-object documents only through missing-field rules', () => {
    expect(matchFilter({ a: 1 }, 'text')).toBe(false);
    expect(matchFilter({ a: { $exist: false } }, null)).toBe(true);
  });
});
