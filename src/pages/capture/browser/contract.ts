/**
 * What the capture page's script receives from the Worker: the JSON of the page endpoints
 * (`src/pages/capture/api.ts`) and the messages in `data-msgs`. Browser code cannot import the
 * server modules (they need the Workers types), so the shapes are repeated here; a type test
 * (test/capture-page/script.test.ts) fails when they drift from `PageState` and `PhotoReceipt`.
 */
export type { Messages } from "../i18n";

/** A photo's receipt: only the scene check is told to the page, never the fraud checks. */
export interface PhotoReceipt {
  photoId: string;
  scenePosition: number | null;
  sceneCheck: { passed: boolean; reasons: string[] };
  overridden: boolean;
}

/** `GET /state`: everything the page needs to start or resume. */
export interface PageState {
  scenes: { position: number; description: string; completed: boolean }[];
  photos: PhotoReceipt[];
  limits: { chunkBytes: number; freeSeriesMax: number };
}

/** `POST /nonce`. */
export interface Nonce {
  nonce: string;
  issuedAt: number;
}

/** `POST /finish`. */
export interface FinishAnswer {
  outcome: "io" | "retry" | "manual";
  attemptsLeft: number;
}

/** The browser's position as sent in the attestation. */
export interface Position {
  latitude: number;
  longitude: number;
  accuracy: number;
  timestamp: number;
}

/** RFC 9457 problem body (the fields the page reads). */
export interface Problem {
  type?: string;
  detail?: string;
}
