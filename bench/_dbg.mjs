import { benchModel, rawTurn, inputOf } from "./lib/fixtures.mjs";
import { measure, gc } from "./lib/stats.mjs";
const model = benchModel();
for (let rep = 0; rep < 8; rep++) {
  const history = [];
  const s = [];
  gc();
  for (let i = 0; i < 10; i++) s.push(await measure(() => rawTurn(model, history, inputOf(i))));
  console.log(s.map((x) => x.cpuMs.toFixed(1) + "/" + x.wallMs.toFixed(1)).join(" "));
}
