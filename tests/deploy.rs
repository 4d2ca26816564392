//! The campaign's deployment files hold together: the Kubernetes Job runs
//! one shard a pod, as many parts as completions, and the Dockerfile copies
//! everything the crate's build reads (docs/fuzzing.md).

use std::path::Path;

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// The value after `key: ` on the first line that has it, unquoted.
fn value<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .find_map(|l| l.trim().strip_prefix(&format!("{key}: ")))
        .map(|v| v.trim_matches('"'))
}

#[test]
fn the_job_runs_one_shard_a_pod_of_as_many_as_its_completions() {
    let job = read("deploy/fuzz-job.yaml");
    assert_eq!(value(&job, "kind"), Some("Job"));
    assert_eq!(value(&job, "completionMode"), Some("Indexed"));
    let completions = value(&job, "completions").unwrap();
    // PARTS is the env entry named so: its value is on the next line.
    let parts = job
        .split("- name: PARTS")
        .nth(1)
        .and_then(|rest| value(rest, "value"))
        .unwrap();
    assert_eq!(parts, completions, "PARTS must equal completions");
    // The pod's index (0-based) is the shard (1-based), and its standard
    // output the shard's report alone.
    assert!(job.contains(r#"--shard "$((JOB_COMPLETION_INDEX + 1))/$PARTS" --json 2> /tmp/stderr"#));
    // A seed that fails (status 1) is a result, not a failed pod.
    assert!(job.contains(r#"if [ "$status" -gt 1 ]; then"#));
}

#[test]
fn the_image_is_built_from_what_the_build_reads() {
    let docker = read("deploy/Dockerfile");
    let copied: Vec<&str> = docker
        .lines()
        .filter_map(|l| l.strip_prefix("COPY "))
        .filter(|l| !l.starts_with("--from"))
        .flat_map(|l| l.split_whitespace().rev().skip(1))
        .collect();
    // The manifest and lock file, the code, the lessons the library embeds
    // (`embedded-lessons`, on by default), and the benches it names.
    for needed in ["Cargo.toml", "Cargo.lock", "src", "lessons", "benches"] {
        assert!(
            copied.contains(&needed),
            "{needed} is not copied: {copied:?}"
        );
    }
    let manifest = read("Cargo.toml");
    assert!(manifest.contains("default = [\"embedded-lessons\"]"));
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("build.rs")
        .exists());
    // Cargo refuses a manifest whose named targets have no file, whichever
    // target it builds: each named bench and test is in the image.
    let named = |kind: &str, dir: &str| -> Vec<String> {
        manifest
            .split(&format!("[[{kind}]]"))
            .skip(1)
            .map(|t| {
                let name = t
                    .lines()
                    .find_map(|l| l.strip_prefix("name = "))
                    .unwrap()
                    .trim_matches('"');
                format!("{dir}/{name}.rs")
            })
            .collect()
    };
    for bench in named("bench", "benches") {
        assert!(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(&bench).exists(),
            "{bench}"
        );
    }
    for test in named("test", "tests") {
        assert!(
            copied.contains(&test.as_str()) || copied.contains(&"tests"),
            "{test} is named in Cargo.toml but not copied: {copied:?}"
        );
    }
    assert!(docker.contains("cargo build --release --locked --bin raftlab"));
    assert!(docker.contains("FROM rust:${RUST_VERSION}-slim-${DEBIAN_RELEASE} AS build"));
    assert!(docker.contains("COPY --from=build /src/target/release/raftlab /usr/local/bin/raftlab"));
}
