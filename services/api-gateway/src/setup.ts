// One-shot set-up (Kafka topics, then the pending MongoDB migrations), bundled as dist/setup.js
// (tools/build-services.mjs) and run by the Helm chart's pre-install/pre-upgrade Job before any
// service starts. `node dist/setup.js migrate status|up` reports or applies the migrations alone.
import { loadConfig } from '@hookrail/config';
import { runSetupMain } from '@hookrail/runtime';

runSetupMain(loadConfig('api-gateway'));
