// Stylesheets imported by the pages' entries: esbuild bundles them into the page's CSS file.
declare module '*.css';
