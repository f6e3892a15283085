// got ships its types only through package.json "exports", which TypeScript's node10 resolution
// (tsconfig.base.json) does not read; point the bare specifier at them. Types only: at runtime
// tsx, jest and esbuild resolve got normally.
declare module 'got' {
  export * from 'got/dist/source/index';
  export { default } from 'got/dist/source/index';
}
