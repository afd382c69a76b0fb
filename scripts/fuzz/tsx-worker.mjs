// Worker threads do not inherit `--import tsx`: register the TypeScript loader here, then load the worker's module.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.module);
