import { fromReasons, type CheckReason, type CheckResult } from "./types";

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
      reasons: [{ code: "no_position", message: "The policyholder did not share a position." }],
      evidence,
    };
  const reasons: CheckReason[] = [...spoofSigns(position)];
  if (network) {
    const km = distanceKm(position, network);
    evidence.networkDistanceKm = Math.round(km);
    if (km > LOCATION_LIMITS.maxNetworkDistanceKm + position.accuracy / 1000) {
      reasons.push({
        code: "far_from_network",
        message: `The phone reports a position ${Math.round(km)} km from where its internet connection is located.`,
      });
    }
  }
  for (const other of earlier) {
    const km = distanceKm(position, other);
    const hours = Math.max(Math.abs(position.timestamp - other.timestamp), 1000) / 3_600_000;
    if (
      km > LOCATION_LIMITS.minMoveKm + (position.accuracy + other.accuracy) / 1000 &&
      km / hours > LOCATION_LIMITS.maxSpeedKmh
    ) {
      reasons.push({
        code: "impossible_move",
        message: `Between two shots the position jumped ${Math.round(km)} km in ${Math.round(hours * 60)} min.`,
      });
      break;
    }
  }
  return fromReasons(reasons, evidence);
}

function spoofSigns(p: Position): CheckReason[] {
  const reasons: CheckReason[] = [];
  const valid = Math.abs(p.latitude) <= 90 && Math.abs(p.longitude) <= 180 && Number.isFinite(p.accuracy);
  if (!valid) return [{ code: "invalid_position", message: "The reported position is not a valid coordinate." }];
  if (p.accuracy <= 0)
    reasons.push({
      code: "perfect_accuracy",
      message: "The position claims perfect accuracy, which no real receiver gives: typical of mocked locations.",
    });
  if (p.accuracy > LOCATION_LIMITS.maxAccuracyM)
    reasons.push({
      code: "too_inaccurate",
      message: `The position is only accurate to ${Math.round(p.accuracy / 1000)} km.`,
    });
  if (Math.abs(p.latitude) < 0.01 && Math.abs(p.longitude) < 0.01)
    reasons.push({ code: "null_island", message: "The position is 0°, 0° — a default value, not a real fix." });
  else if (Number.isInteger(p.latitude) && Number.isInteger(p.longitude))
    reasons.push({
      code: "round_coordinates",
      message: "The coordinates are whole degrees, as typed in rather than measured.",
    });
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
