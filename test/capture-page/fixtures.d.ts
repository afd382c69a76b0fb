/** Vite inlines `?inline` imports as data URLs: how fixture bytes reach tests inside workerd. */
declare module "*?inline" {
  const dataUrl: string;
  export default dataUrl;
}
