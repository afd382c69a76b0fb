/**
 * The capture page's script (browser code, type-checked with tsconfig.browser.json). It is bundled
 * by scripts/build-browser.mjs into `../assets/capture.bundle.js` (ES2017 for mid-range phones),
 * which the Worker serves at `/c/assets/capture.js` (the CSP allows no inline script).
 * Flow: start camera → per scene: nonce → shot → preview → resumable chunked upload → scene
 * check answer (retake / send anyway) → "send" judges the attempt.
 */
import type { FinishAnswer, Messages, Nonce, PageState, PhotoReceipt, Position, Problem } from "./contract";

/** A refused request: the problem's detail as message, with its status and body. */
type RequestError = Error & { status?: number; problem?: Problem | null };

/** One shot between taking it and its receipt. */
interface Shot {
  nonce: string;
  buffer: ArrayBuffer;
  sha256: string;
  capturedAt: number;
  scenePosition: number | null;
  trackWidth: number;
  trackHeight: number;
  cameraLabel: string;
  deviceLabel: string;
}

const SECTIONS = ["intro", "camera", "preview", "ready", "result"];

/** Every id used here is rendered by the server (src/pages/capture/view.ts). */
function $<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

function run(app: HTMLElement): void {
  const M = JSON.parse(app.getAttribute("data-msgs")!) as Messages;
  const base = `/c/${app.getAttribute("data-token")}`;
  let state: PageState | null = null;
  let stream: MediaStream | null = null;
  let track: MediaStreamTrack | null = null;
  let position: Position | null = null;
  let geoWatch: number | null = null;
  let nonceP: Promise<Nonce> | null = null;
  let shot: Shot | null = null;
  let receipt: PhotoReceipt | null = null;
  let busy = false;

  function t(key: string, vars: Record<string, string | number> = {}): string {
    let s = (M as Record<string, string>)[key] || key;
    Object.keys(vars).forEach((k) => {
      s = s.split(`{${k}}`).join(String(vars[k]));
    });
    return s;
  }
  function say(text: string): void {
    $("status").textContent = text || "";
  }
  function show(id: string, focusId: string): void {
    SECTIONS.forEach((s) => {
      $(s).hidden = s !== id;
    });
    const f = document.getElementById(focusId);
    if (f) f.focus();
  }
  function sleep(ms: number): Promise<void> {
    return new Promise((r) => setTimeout(r, ms));
  }
  function online(): Promise<void> {
    if (navigator.onLine !== false) return Promise.resolve();
    say(M.offline);
    return new Promise((r) => {
      window.addEventListener("online", function h() {
        window.removeEventListener("online", h);
        r();
      });
    });
  }

  /** One request; a problem answer becomes an Error with .status and .problem. */
  async function call<T>(method: string, path: string, body?: BodyInit, headers?: Record<string, string>): Promise<T> {
    const res = await fetch(base + path, {
      method,
      body,
      headers: headers || {},
      credentials: "same-origin",
      cache: "no-store",
    });
    const type = res.headers.get("content-type") || "";
    const data = type.indexOf("json") >= 0 ? await res.json() : null;
    if (!res.ok) {
      const err: RequestError = new Error((data && (data as Problem).detail) || M.errorGeneric);
      err.status = res.status;
      err.problem = data as Problem | null;
      throw err;
    }
    return data as T;
  }
  function json<T>(method: string, path: string, value?: unknown): Promise<T> {
    return call<T>(method, path, value === undefined ? undefined : JSON.stringify(value), {
      "content-type": "application/json",
    });
  }

  /** Retries network failures, 5xx and 429 with backoff, waiting for the connection to come back. */
  async function patiently<T>(fn: () => Promise<T>): Promise<T> {
    let delay = 1000;
    for (let i = 0; ; i++) {
      await online();
      try {
        return await fn();
      } catch (e) {
        const err = e as RequestError;
        if (err.status && err.status < 500 && err.status !== 429) throw err;
        if (i >= 12) throw err;
        say(navigator.onLine === false ? M.offline : M.retrying);
        await sleep(delay);
        delay = Math.min(delay * 2, 15000);
      }
    }
  }

  function nextScene(): PageState["scenes"][number] | null {
    for (const scene of state!.scenes) if (!scene.completed) return scene;
    return null;
  }
  function freeCount(): number {
    return state!.photos.filter((p) => p.sceneCheck.passed || p.overridden).length;
  }
  function renderSceneList(): void {
    const items = document.querySelectorAll("#scene-list li");
    for (let i = 0; i < items.length; i++) {
      const pos = Number(items[i].getAttribute("data-position"));
      const scene = state!.scenes.filter((s) => s.position === pos)[0];
      items[i].className = scene?.completed ? "done" : "";
    }
  }

  function toCamera(): void {
    renderSceneList();
    if (state!.scenes.length > 0) {
      const scene = nextScene();
      if (!scene) {
        show("ready", "ready-label");
        return;
      }
      $("scene-label").textContent = t("scene", { n: scene.position, total: state!.scenes.length });
      $("scene-text").textContent = scene.description;
      $("finish-series").hidden = true;
    } else {
      const n = freeCount();
      if (n >= state!.limits.freeSeriesMax) {
        show("ready", "ready-label");
        return;
      }
      $("scene-label").textContent = t("freeSeries", { n, max: state!.limits.freeSeriesMax });
      $("scene-text").textContent = "";
      $("finish-series").hidden = n === 0;
    }
    if (!nonceP) nonceP = patiently(() => json<Nonce>("POST", "/nonce"));
    show("camera", "scene-label");
  }

  function positionOf(p: GeolocationPosition): Position {
    return {
      latitude: p.coords.latitude,
      longitude: p.coords.longitude,
      accuracy: p.coords.accuracy,
      timestamp: Math.round(p.timestamp),
    };
  }

  function startGeolocation(): void {
    if (!navigator.geolocation || geoWatch !== null) return;
    geoWatch = navigator.geolocation.watchPosition(
      (p) => {
        position = positionOf(p);
      },
      () => {
        /* refused or unavailable: the photos go without a position */
      },
      { enableHighAccuracy: true, maximumAge: 30000, timeout: 30000 },
    );
  }

  /** The latest fix; if none has come yet, wait a few seconds for one (first fixes are slow). */
  function currentPosition(): Promise<Position | null> {
    if (position || !navigator.geolocation) return Promise.resolve(position);
    return new Promise((resolve) => {
      navigator.geolocation.getCurrentPosition(
        (p) => {
          position = positionOf(p);
          resolve(position);
        },
        () => {
          resolve(null);
        },
        { enableHighAccuracy: true, maximumAge: 60000, timeout: 4000 },
      );
    });
  }

  async function startCamera(): Promise<void> {
    await loaded;
    if (!state) return;
    if (!navigator.mediaDevices?.getUserMedia) {
      say(M.cameraNone);
      return;
    }
    startGeolocation();
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: { facingMode: { ideal: "environment" }, width: { ideal: 1920 }, height: { ideal: 1080 } },
      });
    } catch (err) {
      say(err && (err as Error).name === "NotFoundError" ? M.cameraNone : M.cameraError);
      return;
    }
    track = stream.getVideoTracks()[0];
    const video = $<HTMLVideoElement>("video");
    video.srcObject = stream;
    video.onloadedmetadata = () => {
      $<HTMLButtonElement>("shutter").disabled = false;
    };
    toCamera();
  }

  async function sha256Hex(buffer: ArrayBuffer): Promise<string> {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
    return Array.from(digest, (b) => (b < 16 ? "0" : "") + b.toString(16)).join("");
  }

  async function takeShot(): Promise<void> {
    if (busy) return;
    busy = true;
    $<HTMLButtonElement>("shutter").disabled = true;
    try {
      const nonce = await nonceP!;
      const video = $<HTMLVideoElement>("video");
      const canvas = document.createElement("canvas");
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      const capturedAt = Date.now();
      canvas.getContext("2d")!.drawImage(video, 0, 0, canvas.width, canvas.height);
      const blob = await new Promise<Blob | null>((r) => {
        canvas.toBlob(r, "image/jpeg", 0.92);
      });
      if (!blob) throw new Error(M.errorGeneric);
      const buffer = await blob.arrayBuffer();
      // Older browsers lack getSettings: the canvas size stands in for the track's.
      const settings: MediaTrackSettings = typeof track!.getSettings === "function" ? track!.getSettings() : {};
      const scene = state!.scenes.length > 0 ? nextScene() : null;
      shot = {
        nonce: nonce.nonce,
        buffer,
        sha256: await sha256Hex(buffer),
        capturedAt,
        scenePosition: scene ? scene.position : null,
        trackWidth: settings.width || canvas.width,
        trackHeight: settings.height || canvas.height,
        cameraLabel: track!.label || "",
        deviceLabel: navigator.userAgent,
      };
      const img = $<HTMLImageElement>("preview-img");
      if (img.src) URL.revokeObjectURL(img.src);
      img.src = URL.createObjectURL(blob);
      $("scene-warning").hidden = true;
      $("send-anyway").hidden = true;
      $("use").hidden = false;
      $<HTMLButtonElement>("retake").disabled = false;
      $<HTMLButtonElement>("use").disabled = false;
      $("upload-progress").hidden = true;
      say("");
      show("preview", "preview-label");
    } catch (err) {
      say((err as Error).message || M.errorGeneric);
    } finally {
      busy = false;
      $<HTMLButtonElement>("shutter").disabled = false;
    }
  }

  /** Sends the shot in chunks; after an interruption only the missing chunks are sent again. */
  async function upload(s: Shot): Promise<PhotoReceipt> {
    const size = s.buffer.byteLength;
    const chunk = state!.limits.chunkBytes;
    const count = Math.max(1, Math.ceil(size / chunk));
    const progress = $<HTMLProgressElement>("upload-progress");
    progress.hidden = false;
    const have: Record<number, boolean> = {};
    try {
      (await call<{ received: number[] }>("GET", `/uploads/${s.nonce}`)).received.forEach((i) => {
        have[i] = true;
      });
    } catch {
      /* start from zero */
    }
    for (let i = 0; i < count; i++) {
      if (!have[i]) {
        const part = s.buffer.slice(i * chunk, Math.min(size, (i + 1) * chunk));
        await patiently(() =>
          call<null>("PUT", `/uploads/${s.nonce}/${i}`, part, { "content-type": "application/octet-stream" }),
        );
      }
      progress.value = Math.round(((i + 1) / count) * 90);
      say(t("uploading", { p: progress.value }));
    }
    const where = await currentPosition();
    const result = await patiently(() =>
      json<PhotoReceipt>("POST", `/uploads/${s.nonce}/complete`, {
        sha256: s.sha256,
        chunks: count,
        scenePosition: s.scenePosition,
        capturedAt: s.capturedAt,
        cameraLabel: s.cameraLabel,
        deviceLabel: s.deviceLabel,
        trackWidth: s.trackWidth,
        trackHeight: s.trackHeight,
        position: where,
      }),
    );
    progress.value = 100;
    say("");
    return result;
  }

  function accept(r: PhotoReceipt): void {
    state!.photos.push(r);
    state!.scenes.forEach((sc) => {
      if (sc.position === r.scenePosition) sc.completed = true;
    });
    shot = null;
    receipt = null;
    toCamera();
  }

  async function usePhoto(): Promise<void> {
    if (busy || !shot) return;
    busy = true;
    $<HTMLButtonElement>("use").disabled = true;
    $<HTMLButtonElement>("retake").disabled = true;
    try {
      const r = await upload(shot);
      nonceP = null; // the nonce is spent; the next shot gets a new one
      if (r.sceneCheck.passed || r.overridden) return accept(r);
      receipt = r;
      const list = $("scene-reasons");
      list.textContent = "";
      r.sceneCheck.reasons.forEach((code) => {
        const li = document.createElement("li");
        li.textContent = t(`reason_${code}`);
        list.appendChild(li);
      });
      $("scene-warning").hidden = false;
      $("upload-progress").hidden = true;
      $("use").hidden = true;
      $("send-anyway").hidden = false;
      $<HTMLButtonElement>("retake").disabled = false;
    } catch (err) {
      failed(err);
    } finally {
      busy = false;
    }
  }

  async function sendAnyway(): Promise<void> {
    if (busy || !receipt) return;
    busy = true;
    try {
      accept(await patiently(() => json<PhotoReceipt>("POST", `/photos/${receipt!.photoId}/override`)));
    } catch (err) {
      failed(err);
    } finally {
      busy = false;
    }
  }

  function retake(): void {
    shot = null;
    receipt = null;
    toCamera();
  }

  async function finish(): Promise<void> {
    if (busy) return;
    busy = true;
    $<HTMLButtonElement>("finish").disabled = true;
    $<HTMLButtonElement>("finish-series").disabled = true;
    say(M.checking);
    try {
      const r = await patiently(() => json<FinishAnswer>("POST", "/finish"));
      say("");
      if (r.outcome === "retry") {
        state = await call<PageState>("GET", "/state");
        return result(M.retryTitle, t("retryText", { n: r.attemptsLeft }), true);
      }
      stopCamera();
      result(M.doneTitle, r.outcome === "io" ? M.doneIo : M.doneManual, false);
    } catch (err) {
      failed(err);
    } finally {
      busy = false;
      $<HTMLButtonElement>("finish").disabled = false;
      $<HTMLButtonElement>("finish-series").disabled = false;
    }
  }

  function result(title: string, text: string, again: boolean): void {
    $("result-title").textContent = title;
    $("result-text").textContent = text;
    $("again").hidden = !again;
    $("other").hidden = !again;
    show("result", "result-title");
  }

  /** Link no longer usable (replaced, closed, handed in): say so and stop. Else: retake. */
  function failed(e: unknown): void {
    const err = e as RequestError;
    const code = err.problem?.type ? err.problem.type.split(":").pop() : "";
    if (err.status === 410 || code === "capture-finished" || code === "link-not-found") {
      stopCamera();
      result(M.errorGeneric, err.message, false);
      return;
    }
    say(err.message || M.errorGeneric);
    if (err.status && err.status < 500) {
      nonceP = null;
      shot = null;
      receipt = null;
      if (stream) toCamera();
    }
  }

  function stopCamera(): void {
    if (stream)
      stream.getTracks().forEach((tr) => {
        tr.stop();
      });
    if (geoWatch !== null && navigator.geolocation) navigator.geolocation.clearWatch(geoWatch);
    stream = null;
  }

  let pendingChoice: "inspection" | "withdraw" | null = null;
  function ask(choice: "inspection" | "withdraw"): void {
    pendingChoice = choice;
    $("confirm-text").textContent = choice === "inspection" ? M.inspectionConfirm : M.withdrawConfirm;
    $<HTMLDialogElement>("confirm").showModal();
  }
  async function confirmChoice(): Promise<void> {
    $<HTMLDialogElement>("confirm").close();
    const choice = pendingChoice;
    try {
      await patiently(() => json<unknown>("POST", choice === "inspection" ? "/inspection" : "/withdraw"));
      stopCamera();
      result(M.doneTitle, choice === "inspection" ? M.inspectionDone : M.withdrawDone, false);
    } catch (err) {
      failed(err);
    }
  }

  $("start").addEventListener("click", startCamera);
  $("shutter").addEventListener("click", takeShot);
  $("retake").addEventListener("click", retake);
  $("use").addEventListener("click", usePhoto);
  $("send-anyway").addEventListener("click", sendAnyway);
  $("finish").addEventListener("click", finish);
  $("finish-series").addEventListener("click", finish);
  $("again").addEventListener("click", () => {
    $("other").hidden = false;
    toCamera();
  });
  $("inspection").addEventListener("click", () => {
    ask("inspection");
  });
  $("withdraw").addEventListener("click", () => {
    ask("withdraw");
  });
  $("confirm-yes").addEventListener("click", confirmChoice);
  $("confirm-no").addEventListener("click", () => {
    $<HTMLDialogElement>("confirm").close();
  });

  const loaded = call<PageState>("GET", "/state").then((s) => {
    state = s;
    renderSceneList();
  }, failed);
}

const app = document.getElementById("app");
if (app) run(app);
