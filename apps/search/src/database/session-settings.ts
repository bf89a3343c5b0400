/**
 * The server settings of every session of the search service's pools (sent at connection start,
 * `typeOrmOptions`' `sessionSettings`).
 *
 * `jit: 'off'`: the search statements' estimated costs are above `jit_above_cost`, so a server
 * built with LLVM (PostgreSQL's default wherever its LLVM support is installed) compiled them on
 * every search, which cost a third of a typed search's time (docs/benchmarks.md, "JIT off"). A
 * search statement runs for milliseconds: compiling never pays off. The CloudNativePG Cluster sets
 * it server-wide too (k8s/components/database/cluster.yaml).
 */
export const SEARCH_SESSION_SETTINGS: Record<string, string> = { jit: 'off' };
