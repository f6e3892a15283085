#!/usr/bin/env bash
# The static checks, in one list: CI (.ci/run) runs them and the pre-push hook (.githooks/pre-push)
# mirrors them. Each failing check prints the command that fixes or shows it. Exit 1 if any failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source deploy/local/node.sh >/dev/null

# name | command | what fixes it
CHECKS=(
  "typecheck|npm run -s typecheck|fix the type errors above (npm run typecheck)"
  "lint|npm run -s lint|npx eslint . --fix, then fix what remains (npm run lint)"
  "format|npm run -s format:check|npm run format"
  "knip|npm run -s knip|remove the unused file, export, type or dependency it names, or un-export it; declare an unlisted dependency in the package.json of the workspace that imports it (npm run knip)"
)

failed=()
for check in "${CHECKS[@]}"; do
  IFS='|' read -r name command fix <<<"$check"
  echo "==> $name"
  if ! bash -c "$command"; then
    echo "✗ $name failed. Fix: $fix" >&2
    failed+=("$name")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "static checks failed: ${failed[*]}" >&2
  exit 1
fi
echo "static checks passed"
