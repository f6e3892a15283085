// One-shot set-up (Kafka topics, MongoDB collections and indexes), bundled as dist/setup.js (tools/build-services.mjs) and
// run by the Helm chart's pre-install/pre-upgrade Job before any service starts.
import { loadConfig } from '@hookrail/config';
import { runSetupMain } from '@hookrail/runtime';

runSetupMain(loadConfig('api-gateway'));
