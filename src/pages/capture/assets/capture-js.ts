/**
 * The capture page's script, served from `/c/assets/capture.js` (the CSP allows no inline
 * script). Plain ES2017 for mid-range phones; no template literals so it can live in this string.
 * Flow: start camera → per scene: nonce → shot → preview → resumable chunked upload → scene
 * check answer (retake / send anyway) → "send" judges the attempt.
 */
export const CAPTURE_JS = String.raw`
(function () {
  "use strict";
  var app = document.getElementById("app");
  if (!app) return;
  var M = JSON.parse(app.getAttribute("data-msgs"));
  var base = "/c/" + app.getAttribute("data-token");
  var SECTIONS = ["intro", "camera", "preview", "ready", "result"];
  var state = null, stream = null, track = null, position = null, geoWatch = null;
  var nonceP = null, shot = null, receipt = null, busy = false;

  function $(id) { return document.getElementById(id); }
  function t(key, vars) {
    var s = M[key] || key;
    Object.keys(vars || {}).forEach(function (k) { s = s.split("{" + k + "}").join(String(vars[k])); });
    return s;
  }
  function say(text) { $("status").textContent = text || ""; }
  function show(id, focusId) {
    SECTIONS.forEach(function (s) { $(s).hidden = s !== id; });
    var f = $(focusId);
    if (f) f.focus();
  }
  function sleep(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }
  function online() {
    if (navigator.onLine !== false) return Promise.resolve();
    say(M.offline);
    return new Promise(function (r) { window.addEventListener("online", function h() { window.removeEventListener("online", h); r(); }); });
  }

  /** One request; a problem answer becomes an Error with .status and .problem. */
  async function call(method, path, body, headers) {
    var res = await fetch(base + path, { method: method, body: body, headers: headers || {}, credentials: "same-origin", cache: "no-store" });
    var type = res.headers.get("content-type") || "";
    var data = type.indexOf("json") >= 0 ? await res.json() : null;
    if (!res.ok) { var err = new Error((data && data.detail) || M.errorGeneric); err.status = res.status; err.problem = data; throw err; }
    return data;
  }
  function json(method, path, value) { return call(method, path, value === undefined ? undefined : JSON.stringify(value), { "content-type": "application/json" }); }

  /** Retries network failures, 5xx and 429 with backoff, waiting for the connection to come back. */
  async function patiently(fn) {
    var delay = 1000;
    for (var i = 0; ; i++) {
      await online();
      try { return await fn(); } catch (err) {
        if (err.status && err.status < 500 && err.status !== 429) throw err;
        if (i >= 12) throw err;
        say(navigator.onLine === false ? M.offline : M.retrying);
        await sleep(delay);
        delay = Math.min(delay * 2, 15000);
      }
    }
  }

  function nextScene() {
    for (var i = 0; i < state.scenes.length; i++) if (!state.scenes[i].completed) return state.scenes[i];
    return null;
  }
  function freeCount() { return state.photos.filter(function (p) { return p.sceneCheck.passed || p.overridden; }).length; }
  function renderSceneList() {
    var items = document.querySelectorAll("#scene-list li");
    for (var i = 0; i < items.length; i++) {
      var pos = Number(items[i].getAttribute("data-position"));
      var scene = state.scenes.filter(function (s) { return s.position === pos; })[0];
      items[i].className = scene && scene.completed ? "done" : "";
    }
  }

  function toCamera() {
    renderSceneList();
    if (state.scenes.length > 0) {
      var scene = nextScene();
      if (!scene) return show("ready", "ready-label");
      $("scene-label").textContent = t("scene", { n: scene.position, total: state.scenes.length });
      $("scene-text").textContent = scene.description;
      $("finish-series").hidden = true;
    } else {
      var n = freeCount();
      if (n >= state.limits.freeSeriesMax) return show("ready", "ready-label");
      $("scene-label").textContent = t("freeSeries", { n: n, max: state.limits.freeSeriesMax });
      $("scene-text").textContent = "";
      $("finish-series").hidden = n === 0;
    }
    if (!nonceP) nonceP = patiently(function () { return json("POST", "/nonce"); });
    show("camera", "scene-label");
  }

  function startGeolocation() {
    if (!navigator.geolocation || geoWatch !== null) return;
    geoWatch = navigator.geolocation.watchPosition(function (p) {
      position = { latitude: p.coords.latitude, longitude: p.coords.longitude, accuracy: p.coords.accuracy, timestamp: Math.round(p.timestamp) };
    }, function () { /* refused or unavailable: the photos go without a position */ }, { enableHighAccuracy: true, maximumAge: 30000, timeout: 30000 });
  }

  /** The latest fix; if none has come yet, wait a few seconds for one (first fixes are slow). */
  function currentPosition() {
    if (position || !navigator.geolocation) return Promise.resolve(position);
    return new Promise(function (resolve) {
      navigator.geolocation.getCurrentPosition(function (p) {
        position = { latitude: p.coords.latitude, longitude: p.coords.longitude, accuracy: p.coords.accuracy, timestamp: Math.round(p.timestamp) };
        resolve(position);
      }, function () { resolve(null); }, { enableHighAccuracy: true, maximumAge: 60000, timeout: 4000 });
    });
  }

  async function startCamera() {
    await loaded;
    if (!state) return;
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) { say(M.cameraNone); return; }
    startGeolocation();
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: false, video: { facingMode: { ideal: "environment" }, width: { ideal: 1920 }, height: { ideal: 1080 } } });
    } catch (err) {
      say(err && err.name === "NotFoundError" ? M.cameraNone : M.cameraError);
      return;
    }
    track = stream.getVideoTracks()[0];
    var video = $("video");
    video.srcObject = stream;
    video.onloadedmetadata = function () { $("shutter").disabled = false; };
    toCamera();
  }

  async function sha256Hex(buffer) {
    var digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
    return Array.prototype.map.call(digest, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  async function takeShot() {
    if (busy) return;
    busy = true;
    $("shutter").disabled = true;
    try {
      var nonce = await nonceP;
      var video = $("video");
      var canvas = document.createElement("canvas");
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      var capturedAt = Date.now();
      canvas.getContext("2d").drawImage(video, 0, 0, canvas.width, canvas.height);
      var blob = await new Promise(function (r) { canvas.toBlob(r, "image/jpeg", 0.92); });
      var buffer = await blob.arrayBuffer();
      var settings = track.getSettings ? track.getSettings() : {};
      var scene = state.scenes.length > 0 ? nextScene() : null;
      shot = {
        nonce: nonce.nonce, buffer: buffer, sha256: await sha256Hex(buffer), capturedAt: capturedAt,
        scenePosition: scene ? scene.position : null,
        trackWidth: settings.width || canvas.width, trackHeight: settings.height || canvas.height,
        cameraLabel: track.label || "", deviceLabel: navigator.userAgent
      };
      if ($("preview-img").src) URL.revokeObjectURL($("preview-img").src);
      $("preview-img").src = URL.createObjectURL(blob);
      $("scene-warning").hidden = true;
      $("send-anyway").hidden = true;
      $("use").hidden = false;
      $("retake").disabled = false;
      $("use").disabled = false;
      $("upload-progress").hidden = true;
      say("");
      show("preview", "preview-label");
    } catch (err) {
      say(err.message || M.errorGeneric);
    } finally {
      busy = false;
      $("shutter").disabled = false;
    }
  }

  /** Sends the shot in chunks; after an interruption only the missing chunks are sent again. */
  async function upload(s) {
    var size = s.buffer.byteLength, chunk = state.limits.chunkBytes;
    var count = Math.max(1, Math.ceil(size / chunk));
    var progress = $("upload-progress");
    progress.hidden = false;
    var have = {};
    try { (await call("GET", "/uploads/" + s.nonce)).received.forEach(function (i) { have[i] = true; }); } catch (e) { /* start from zero */ }
    for (var i = 0; i < count; i++) {
      if (!have[i]) {
        var part = s.buffer.slice(i * chunk, Math.min(size, (i + 1) * chunk));
        await patiently(function () { return call("PUT", "/uploads/" + s.nonce + "/" + i, part, { "content-type": "application/octet-stream" }); });
      }
      progress.value = Math.round(((i + 1) / count) * 90);
      say(t("uploading", { p: progress.value }));
    }
    var where = await currentPosition();
    var result = await patiently(function () {
      return json("POST", "/uploads/" + s.nonce + "/complete", {
        sha256: s.sha256, chunks: count, scenePosition: s.scenePosition, capturedAt: s.capturedAt,
        cameraLabel: s.cameraLabel, deviceLabel: s.deviceLabel, trackWidth: s.trackWidth, trackHeight: s.trackHeight, position: where
      });
    });
    progress.value = 100;
    say("");
    return result;
  }

  function accept(r) {
    state.photos.push(r);
    state.scenes.forEach(function (sc) { if (sc.position === r.scenePosition) sc.completed = true; });
    shot = null;
    receipt = null;
    toCamera();
  }

  async function usePhoto() {
    if (busy || !shot) return;
    busy = true;
    $("use").disabled = true;
    $("retake").disabled = true;
    try {
      var r = await upload(shot);
      nonceP = null; // the nonce is spent; the next shot gets a new one
      if (r.sceneCheck.passed || r.overridden) return accept(r);
      receipt = r;
      var list = $("scene-reasons");
      list.textContent = "";
      r.sceneCheck.reasons.forEach(function (code) { var li = document.createElement("li"); li.textContent = t("reason_" + code); list.appendChild(li); });
      $("scene-warning").hidden = false;
      $("upload-progress").hidden = true;
      $("use").hidden = true;
      $("send-anyway").hidden = false;
      $("retake").disabled = false;
    } catch (err) {
      failed(err);
    } finally {
      busy = false;
    }
  }

  async function sendAnyway() {
    if (busy || !receipt) return;
    busy = true;
    try { accept(await patiently(function () { return json("POST", "/photos/" + receipt.photoId + "/override"); })); } catch (err) { failed(err); } finally { busy = false; }
  }

  function retake() {
    shot = null;
    receipt = null;
    toCamera();
  }

  async function finish() {
    if (busy) return;
    busy = true;
    $("finish").disabled = true;
    $("finish-series").disabled = true;
    say(M.checking);
    try {
      var r = await patiently(function () { return json("POST", "/finish"); });
      say("");
      if (r.outcome === "retry") {
        state = await call("GET", "/state");
        return result(M.retryTitle, t("retryText", { n: r.attemptsLeft }), true);
      }
      stopCamera();
      result(M.doneTitle, r.outcome === "io" ? M.doneIo : M.doneManual, false);
    } catch (err) {
      failed(err);
    } finally {
      busy = false;
      $("finish").disabled = false;
      $("finish-series").disabled = false;
    }
  }

  function result(title, text, again) {
    $("result-title").textContent = title;
    $("result-text").textContent = text;
    $("again").hidden = !again;
    $("other").hidden = !again;
    show("result", "result-title");
  }

  /** Link no longer usable (replaced, closed, handed in): say so and stop. Else: retake. */
  function failed(err) {
    var code = err.problem && err.problem.type ? err.problem.type.split(":").pop() : "";
    if (err.status === 410 || code === "capture-finished" || code === "link-not-found") {
      stopCamera();
      return result(M.errorGeneric, err.message, false);
    }
    say(err.message || M.errorGeneric);
    if (err.status && err.status < 500) { nonceP = null; shot = null; receipt = null; if (stream) toCamera(); }
  }

  function stopCamera() {
    if (stream) stream.getTracks().forEach(function (tr) { tr.stop(); });
    if (geoWatch !== null && navigator.geolocation) navigator.geolocation.clearWatch(geoWatch);
    stream = null;
  }

  var pendingChoice = null;
  function ask(choice) {
    pendingChoice = choice;
    $("confirm-text").textContent = choice === "inspection" ? M.inspectionConfirm : M.withdrawConfirm;
    $("confirm").showModal();
  }
  async function confirmChoice() {
    $("confirm").close();
    var choice = pendingChoice;
    try {
      await patiently(function () { return json("POST", choice === "inspection" ? "/inspection" : "/withdraw"); });
      stopCamera();
      result(M.doneTitle, choice === "inspection" ? M.inspectionDone : M.withdrawDone, false);
    } catch (err) { failed(err); }
  }

  $("start").addEventListener("click", startCamera);
  $("shutter").addEventListener("click", takeShot);
  $("retake").addEventListener("click", retake);
  $("use").addEventListener("click", usePhoto);
  $("send-anyway").addEventListener("click", sendAnyway);
  $("finish").addEventListener("click", finish);
  $("finish-series").addEventListener("click", finish);
  $("again").addEventListener("click", function () { $("other").hidden = false; toCamera(); });
  $("inspection").addEventListener("click", function () { ask("inspection"); });
  $("withdraw").addEventListener("click", function () { ask("withdraw"); });
  $("confirm-yes").addEventListener("click", confirmChoice);
  $("confirm-no").addEventListener("click", function () { $("confirm").close(); });

  var loaded = call("GET", "/state").then(function (s) { state = s; renderSceneList(); }, failed);
})();
`;
