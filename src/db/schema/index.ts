export * from "./accounts";
export * from "./capture";
export * from "./scanner";
export * from "./jobs";
