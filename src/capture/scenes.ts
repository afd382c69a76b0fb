/** Spec 2.1: only the first 3 entries are used; of those, descriptions under 5 or over 100 characters are ignored. */
export function usableScenes(scenes: readonly { description: string }[] | undefined): string[] {
  return (scenes ?? [])
    .slice(0, 3)
    .map((scene) => scene.description.trim())
    .filter((description) => description.length >= 5 && description.length <= 100);
}
