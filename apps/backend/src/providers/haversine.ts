import { MEAN_EARTH_RADIUS_METERS } from './proximity.sql';

export interface LatLon {
  latitude: number;
  longitude: number;
}

/**
 * The great-circle distance in metres between two WGS 84 points on a sphere of the mean Earth
 * radius (haversine formula). The service gets its distances from PostgreSQL (earthdistance);
 * this is the independent reference the tests and the benchmark check them against.
 */
export function haversineMeters(a: LatLon, b: LatLon): number {
  const rad = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * MEAN_EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)));
}
