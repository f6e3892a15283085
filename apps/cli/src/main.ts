import { consoleOutput } from './output';
import { runCli } from './program';

void runCli(process.argv.slice(2), consoleOutput).then((code) => {
  process.exitCode = code;
});
