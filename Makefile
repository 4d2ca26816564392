# The two entry points of raftlab. Everything else is in tools/.
.PHONY: serve test pkg bench dist split-profile

# Build the release wasm into pkg/ and serve the app on http://127.0.0.1:8000/.
serve:
	@tools/serve.sh

# Run every check and test; stops at the first failure and ends with the counts.
test:
	@tools/test.sh

# Only build the wasm module into pkg/.
pkg:
	@tools/build-pkg.sh

# Measure the engine, the timeline and the page; README records the figures.
bench:
	@tools/bench.sh

# Write dist/raftlab.html: the whole app in one file that works opened from
# disk, with no server and no network.
dist:
	@tools/dist.sh

# Rewrite tools/split/deferred.txt from a first visit in headless Chromium:
# the functions the page's module leaves to its deferred part.
split-profile:
	@tools/split-profile.sh
