/** `{name}` placeholders filled in; a placeholder without a value stays as it is. Plain text (escape where it is shown). */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}
