// The one function of the `diff` package (7.x ships no types) that src/tools/textHunks.ts uses.
declare module "diff" {
  export interface ArrayChange<T> {
    value: T[];
    count?: number;
    added?: boolean;
    removed?: boolean;
  }
  export function diffArrays<T>(oldArray: readonly T[], newArray: readonly T[]): ArrayChange<T>[];
}
