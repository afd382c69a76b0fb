// Vite's `?inline` imports of binary test files from ../shared/data: a base64 data URL.
declare module "*.jpg?inline" {
  const dataUrl: string;
  export default dataUrl;
}
declare module "*.pdf?inline" {
  const dataUrl: string;
  export default dataUrl;
}
