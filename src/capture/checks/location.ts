import { fromReasons, type CheckReason, type CheckResult } from "./types";
import { checkReason } from "./reason-texts";

/** A browser position (Geolocation API). */
export interface Position {
  latitude: number;
  longitude: number;
  /** Radius of 68 % confidence, metres. */
  accuracy: number;
  /** When the browser fixed it (ms since epoch). */
  timestamp: number;
}

/** The request's network location (`request.cf`); absent locally and in tests. */
export interface NetworkLocation {
  latitude: number;
  longitude: number;
  country?: string;
}

export const LOCATION_LIMITS = {
  /** IP geolocation of mobile networks can be a few hundred km off; farther is a mismatch. */
  maxNetworkDistanceKm: 800,
  /** Faster than this between two shots is impossible on the ground. */
  maxSpeedKmh: 250,
  /** Moves shorter than this are GPS noise, whatever the time between shots. */
  minMoveKm: 2,
  /** Worse than this says nothing about where the photo was taken. */
  maxAccuracyM: 5000,
};

/**
 * Location plausibility of one shot: a position at all, not a spoofed-looking one, near the
 * network location, and reachable from the session's other shots.
 */
export function checkLocation(
  position: Position | null,
  network: NetworkLocation | null,
  earlier: Position[],
): CheckResult {
  const evidence: Record<string, unknown> = { position, network: network ?? "unavailable" };
  if (!position)
    return {
      status: "unknown",
      reasons: [checkReason("no_position")],
      evidence,
    };
  const reasons: CheckReason[] = [...spoofSigns(position)];
  if (network) {
    const km = distanceKm(position, network);
    evidence.networkDistanceKm = Math.round(km);
    if (km > LOCATION_LIMITS.maxNetworkDistanceKm + position.accuracy / 1000) {
      reasons.push(checkReason("far_from_network", { km: Math.round(km) }));
    }
  }
  for (const other of earlier) {
    const km = distanceKm(position, other);
    const hours = Math.max(Math.abs(position.timestamp - other.timestamp), 1000) / 3_600_000;
    if (
      km > LOCATION_LIMITS.minMoveKm + (position.accuracy + other.accuracy) / 1000 &&
      km / hours > LOCATION_LIMITS.maxSpeedKmh
    ) {
      reasons.push(checkReason("impossible_move", { km: Math.round(km), minutes: Math.round(hours * 60) }));
      break;
    }
  }
  return fromReasons(reasons, evidence);
}

function spoofSigns(p: Position): CheckReason[] {
  const reasons: CheckReason[] = [];
  const valid = Math.abs(p.latitude) <= 90 && Math.abs(p.longitude) <= 180 && Number.isFinite(p.accuracy);
  if (!valid) return [checkReason("invalid_position")];
  if (p.accuracy <= 0) reasons.push(checkReason("perfect_accuracy"));
  if (p.accuracy > LOCATION_LIMITS.maxAccuracyM)
    reasons.push(checkReason("too_inaccurate", { km: Math.round(p.accuracy / 1000) }));
  if (Math.abs(p.latitude) < 0.01 && Math.abs(p.longitude) < 0.01) reasons.push(checkReason("null_island"));
  else if (Number.isInteger(p.latitude) && Number.isInteger(p.longitude))
    reasons.push(checkReason("round_coordinates"));
  return reasons;
}

/** Great-circle distance (haversine), km. */
export function distanceKm(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}
