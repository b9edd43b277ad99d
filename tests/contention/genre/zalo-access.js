"use strict";
// Driver: every worker writes the access policy through accessUpdate(); a throw is a lost write.
exports.op = (mod, ctx, i) => {
  mod.accessUpdate({ dmPolicy: "allowlist", allowFrom: [`w${ctx.worker}-${i}`], groups: {}, pending: {},
                     mentionPatterns: ["x".repeat(4096)] });
};
exports.check = (mod, ctx) => {
  const a = mod.accessGet();
  const want = ctx.procs * ctx.ops;
  return { kept: want, want, final_ok: a.dmPolicy === "allowlist" && a.allowFrom.length === 1 };
};
