import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sparePort, waitFor } from '@hookrail/testkit';
import { startDeliveryStack, type DeliveryStack } from './support/delivery-stack';

jest.setTimeout(120_000);

const root = path.resolve(__dirname, '..');

/** The README's curl quick start, run as written on real services (only the addresses and admin key swapped). */
describe("README.md's API quick start", () => {
  let stack: DeliveryStack;
  beforeAll(async () => {
    stack = await startDeliveryStack();
  });
  afterAll(() => stack?.stop());

  it('ends with the event printed by the verifying receiver and the delivery Success', async () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## API quick start'));
    const fenced = /```bash\n([\s\S]*?)\n```\n/.exec(section)!;
    // the follow-ups the paragraph after the block gives inline (stop the receiver, the secrets, a
    // portal link), pasted after it in the same shell
    const after = section
      .slice(fenced.index + fenced[0].length)
      .split('\n\n')
      .slice(0, 3)
      .join('\n');
    const followUps = [...after.matchAll(/`((?:curl|kill) [^`]+)`/g)].map((m) => m[1]);
    expect(followUps).toEqual([
      'kill %1',
      expect.stringContaining('/endpoints/'),
      expect.stringContaining('/portal-links'),
    ]);
    const block = `${fenced[1]}\n${followUps.join('\n')}`;
    const port = String(await sparePort());
    const script = block
      .replace(/^API=http:\/\/127\.0\.0\.1:8080\/api$/m, `API=${stack.apiUrl}`)
      .replace(/^ADMIN=.*$/m, `ADMIN=${stack.adminKey}`)
      .replaceAll(':3000/', `:${port}/`)
      .replace('serve 3000', `serve ${port}`);
    const commands = script.replace(/^#.*$/gm, '');
    expect(commands).not.toContain('8080');
    expect(commands).not.toContain('3000');

    // The example receiver starts late, as on a busy laptop: the snippet must wait for it rather
    // than send its event into a closed port (then the delivery waits for a retry minutes away).
    const slowNode = mkdtempSync(path.join(tmpdir(), 'slow-node-'));
    writeFileSync(
      path.join(slowNode, 'node'),
      `#!/usr/bin/env bash\n[ "\${2:-}" = serve ] && sleep 1.5\nexec ${JSON.stringify(process.execPath)} "$@"\n`,
      { mode: 0o755 },
    );
    let out = '';
    const sh = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: root,
      detached: true,
      env: { ...process.env, PATH: `${slowNode}:${process.env.PATH}` },
    });
    sh.stdout.on('data', (c: Buffer) => (out += c.toString()));
    sh.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const code = await new Promise<number | null>((resolve) => sh.once('exit', resolve));
      expect({ code, out }).toEqual({ code: 0, out: expect.stringContaining('invoice.paid {"amount":42}') });
      // once: the endpoint's subscription of the source does not take the events API's event
      expect(out.split('invoice.paid {"amount":42}')).toHaveLength(2);
      const lines = out.trim().split('\n');
      expect(lines).toContain('Success');
      // after it: the secrets (the one the snippet chose) and the portal link's URL
      const rest = lines.slice(lines.indexOf('Success') + 1).join('\n');
      expect(JSON.parse(rest.slice(0, rest.lastIndexOf(']') + 1))).toEqual([
        expect.objectContaining({ value: 'my-signing-secret-42' }),
      ]);
      expect(lines[lines.length - 1]).toMatch(/^"https?:\/\/[^"]+\/portal[^"]*"$/);
    } finally {
      // the example receiver runs in the background of the script's process group
      await waitFor('the receiver to stop', () => {
        try {
          process.kill(-sh.pid!, 'SIGTERM');
          return false;
        } catch {
          return true;
        }
      });
    }
  });
});
