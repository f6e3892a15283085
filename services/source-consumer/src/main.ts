import { loadConfig } from '@hookrail/config';
import { runMain } from '@hookrail/runtime';
import { definition } from './service';

runMain(definition(loadConfig('source-consumer')));
