/** Image references: pinned means a digest, or a tag that is a version (`1.2`, `v1.27.7`, `0.8.6-pg17`), never `latest`. */
export function imagePinProblem(image: string | undefined): string | undefined {
  if (!image) return 'has no image';
  if (image.includes('${')) return `image ${image} is not a literal`;
  if (/@sha256:[0-9a-f]{64}$/.test(image)) return undefined;
  const lastSegment = image.slice(image.lastIndexOf('/') + 1);
  const colon = lastSegment.lastIndexOf(':');
  if (colon < 0) return `image ${image} has no tag (pin a version or a digest)`;
  const tag = lastSegment.slice(colon + 1);
  if (/latest/i.test(tag)) return `image ${image} uses a "latest" tag (pin a version or a digest)`;
  // A version: digits with at least one dot, or a dated release (RELEASE.2025-09-07T16-13-09Z).
  if (!/^v?\d+\.\d+/.test(tag) && !/^RELEASE\.\d{4}-\d{2}-\d{2}T/.test(tag)) {
    return `image ${image} has the tag "${tag}", which is not a version (pin a version or a digest)`;
  }
  return undefined;
}
