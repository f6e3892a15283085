import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The console and the portal call the API only through the contract's typed caller, so no page
// spells a URL or a response type of its own.
const UI = path.join(__dirname, '..', 'services', 'api-gateway', 'ui');
const TRANSPORT = path.join('components', 'http.ts');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(path.join(dir, e.name))
      : /\.tsx?$/.test(e.name)
        ? [path.join(dir, e.name)]
        : [],
  );
}

const files = sources(UI).map((file) => ({
  file: path.relative(UI, file),
  text: readFileSync(file, 'utf8'),
}));

describe('the browser code and the API contract', () => {
  it('finds the pages', () => {
    expect(files.map((f) => f.file)).toEqual(expect.arrayContaining(['console/App.tsx', 'portal/App.tsx']));
  });

  it('fetches only in the transport', () => {
    expect(files.filter((f) => f.file !== TRANSPORT && /\bfetch\(/.test(f.text)).map((f) => f.file)).toEqual(
      [],
    );
  });

  it('spells no API path: every call names an operation of libs/api-contract', () => {
    const apiPath = /['"`](\/api\/|\/portal-api\/|\/console\/(session|actions))/;
    expect(files.filter((f) => apiPath.test(f.text)).map((f) => f.file)).toEqual([]);
  });

  it('declares no response type by hand: types come from the contract', () => {
    // an interface or object type with a field the API sends (uid, status, created_at…)
    const handTyped = /(interface \w+|type \w+ = \{)[^}]*\b(uid|created_at|status|event_type)\??:/;
    expect(files.filter((f) => handTyped.test(f.text)).map((f) => f.file)).toEqual([]);
  });
});
