import { createRouter } from "../../lib/app";
import { downloadsRoute } from "./downloads";
import { scannerRoute } from "./scanner";
import { uploadUrlRoute } from "./upload-url";
import { uploadsRoute } from "./uploads";

/** File verification API (spec 4.3, 4.4), mounted at /v2. */
export const v2Routes = createRouter();
v2Routes.route("/", uploadUrlRoute);
v2Routes.route("/", scannerRoute);
v2Routes.route("/", uploadsRoute);
v2Routes.route("/", downloadsRoute);
