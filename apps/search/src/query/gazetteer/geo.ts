import type { GeoPoint } from './gazetteer';

/** Geometry on the sphere for the places (issue 62): distances and centroids of points. */

const EARTH_RADIUS_KM = 6371.0088;
const RADIANS = Math.PI / 180;

/** The great-circle distance between two points in kilometres (haversine). */
export function distanceKm(a: GeoPoint, b: GeoPoint): number {
  const dLat = (b.lat - a.lat) * RADIANS;
  const dLon = (b.lon - a.lon) * RADIANS;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RADIANS) * Math.cos(b.lat * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The centroid of points (the mean of their unit vectors: right across the antimeridian too). */
export function centroid(points: readonly GeoPoint[]): GeoPoint {
  let [x, y, z] = [0, 0, 0];
  for (const { lat, lon } of points) {
    x += Math.cos(lat * RADIANS) * Math.cos(lon * RADIANS);
    y += Math.cos(lat * RADIANS) * Math.sin(lon * RADIANS);
    z += Math.sin(lat * RADIANS);
  }
  return {
    lat: Math.atan2(z, Math.hypot(x, y)) / RADIANS,
    lon: Math.atan2(y, x) / RADIANS,
  };
}
