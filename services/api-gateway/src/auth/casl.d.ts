// @casl/ability 7 names its types only in package.json `exports`, which the repository's
// `moduleResolution: node10` does not read; its declaration file is at this path.
declare module '@casl/ability' {
  export * from '@casl/ability/dist/types/index';
}
