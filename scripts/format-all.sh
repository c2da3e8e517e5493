#!/bin/sh
# One pass over the whole tree, run once after the branches that move files are merged:
# apply the fixable lint rules, format everything with Prettier, then list what is left for hand fixing
# (eslint by rule and file, and the errors each stricter tsconfig flag would add).
# Usage: sh scripts/format-all.sh        (from anywhere; changes files in place, commits nothing)
set -u
cd "$(dirname "$0")/.."
ESLINT_CACHE='--cache --cache-location node_modules/.cache/eslint/'

echo '1/4 eslint --fix'
# shellcheck disable=SC2086
npx eslint $ESLINT_CACHE --fix . > /dev/null
echo '2/4 prettier --write'
npx prettier --write --cache --log-level warn .

echo '3/4 what eslint leaves'
# shellcheck disable=SC2086
npx eslint $ESLINT_CACHE -f json . | node scripts/lint-summary.mjs
npx prettier --check --cache --log-level warn . && echo 'prettier: every file formatted'

echo '4/4 tsconfig flags not yet on (errors each would add)'
for flag in noUnusedLocals noUnusedParameters noUncheckedIndexedAccess; do
  if grep -q "\"$flag\": true" tsconfig.json; then
    echo "  $flag: on"
  else
    echo "  $flag: $(npx tsc --noEmit -p . "--$flag" | grep -c 'error TS')"
  fi
done
git diff --shortstat
