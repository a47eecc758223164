//! The deployment files, checked without a cluster: every YAML document of
//! `deploy/kubernetes/*.yaml` parses, and the manifests agree on what
//! matters (an Indexed shard Job whose completions, parallelism and shard
//! count are one number, its shards writing their states to the shared
//! ReadWriteMany claim, a merge Job reading them from the same claim); the
//! Slurm scripts are executable and pass `bash -n`. No Kubernetes cluster
//! runs here; `deploy/slurm/ci-test.sh` (from `.ci/run`) runs the Slurm
//! scripts on a real local Slurm.

use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_yaml_ng::Value;

fn deploy(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("deploy")
        .join(dir)
}

/// Files of `dir` whose names end with `suffix`, sorted.
fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    out.sort();
    out
}

/// Every document of every manifest, with its file.
fn manifests() -> Vec<(PathBuf, Value)> {
    let mut out = Vec::new();
    let yamls = files(&deploy("kubernetes"), ".yaml");
    assert!(yamls.len() >= 3, "{yamls:?}");
    for path in yamls {
        let text = fs::read_to_string(&path).unwrap();
        for doc in serde_yaml_ng::Deserializer::from_str(&text) {
            let value = Value::deserialize(doc)
                .unwrap_or_else(|e| panic!("{}: not valid YAML: {e}", path.display()));
            if !value.is_null() {
                out.push((path.clone(), value));
            }
        }
    }
    out
}

fn str_at<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    let mut at = v;
    for key in path {
        at = &at[*key];
    }
    at.as_str()
        .unwrap_or_else(|| panic!("{} is not a string: {at:?}", path.join(".")))
}

fn u64_at(v: &Value, path: &[&str]) -> u64 {
    let mut at = v;
    for key in path {
        at = &at[*key];
    }
    at.as_u64()
        .unwrap_or_else(|| panic!("{} is not a whole number: {at:?}", path.join(".")))
}

/// The one document of kind `kind` named `name`.
fn find<'a>(docs: &'a [(PathBuf, Value)], kind: &str, name: &str) -> &'a Value {
    let found: Vec<&Value> = docs
        .iter()
        .map(|(_, v)| v)
        .filter(|v| {
            v["kind"].as_str() == Some(kind) && v["metadata"]["name"].as_str() == Some(name)
        })
        .collect();
    assert_eq!(found.len(), 1, "{kind} {name}: {} documents", found.len());
    found[0]
}

/// The only container of a Job's pod template.
fn container(job: &Value) -> &Value {
    let containers = job["spec"]["template"]["spec"]["containers"]
        .as_sequence()
        .expect("containers");
    assert_eq!(containers.len(), 1, "{containers:?}");
    &containers[0]
}

/// The container's command and args as one shell line.
fn command_line(c: &Value) -> String {
    let mut words = Vec::new();
    for key in ["command", "args"] {
        if let Some(seq) = c[key].as_sequence() {
            words.extend(
                seq.iter()
                    .map(|w| w.as_str().expect("a string").to_string()),
            );
        }
    }
    words.join(" ")
}

/// The value of environment variable `name` of the container.
fn env(c: &Value, name: &str) -> String {
    c["env"]
        .as_sequence()
        .expect("env")
        .iter()
        .find(|e| e["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("no env {name}"))["value"]
        .as_str()
        .expect("a string value")
        .to_string()
}

/// Where the container mounts the Job's volume backed by claim `claim`.
fn mount_of_claim(job: &Value, claim: &str) -> String {
    let volume = job["spec"]["template"]["spec"]["volumes"]
        .as_sequence()
        .expect("volumes")
        .iter()
        .find(|v| v["persistentVolumeClaim"]["claimName"].as_str() == Some(claim))
        .unwrap_or_else(|| panic!("no volume of claim {claim}"));
    let name = str_at(volume, &["name"]);
    let mount = container(job)["volumeMounts"]
        .as_sequence()
        .expect("volumeMounts")
        .iter()
        .find(|m| m["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("volume {name} is not mounted"));
    str_at(mount, &["mountPath"]).to_string()
}

#[test]
fn every_manifest_document_parses_and_names_its_kind() {
    let docs = manifests();
    assert!(docs.len() >= 3);
    for (path, v) in &docs {
        for key in ["apiVersion", "kind"] {
            assert!(v[key].as_str().is_some(), "{}: no {key}", path.display());
        }
        assert!(
            v["metadata"]["name"].as_str().is_some(),
            "{}: no metadata.name",
            path.display()
        );
    }
}

#[test]
fn the_shard_job_is_indexed_and_writes_one_state_per_index_to_the_shared_claim() {
    let docs = manifests();
    let pvc = find(&docs, "PersistentVolumeClaim", "woundsim-states");
    let modes: Vec<&str> = pvc["spec"]["accessModes"]
        .as_sequence()
        .expect("accessModes")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(
        modes,
        ["ReadWriteMany"],
        "every pod mounts the states volume"
    );

    let job = find(&docs, "Job", "woundsim-shards");
    assert_eq!(str_at(job, &["apiVersion"]), "batch/v1");
    assert_eq!(str_at(job, &["spec", "completionMode"]), "Indexed");
    let c = container(job);
    let shards: u64 = env(c, "SHARDS").parse().expect("SHARDS is a number");
    assert!(shards >= 1);
    assert_eq!(u64_at(job, &["spec", "completions"]), shards);
    assert_eq!(u64_at(job, &["spec", "parallelism"]), shards);
    assert_eq!(
        str_at(job, &["spec", "template", "spec", "restartPolicy"]),
        "Never"
    );

    let mount = mount_of_claim(job, "woundsim-states");
    let line = command_line(c);
    assert!(line.contains("woundsim run "), "{line}");
    assert!(
        line.contains(r#"--shard "$JOB_COMPLETION_INDEX/$SHARDS""#),
        "{line}"
    );
    assert!(
        line.contains(&format!(
            r#"--state-out "{mount}/shard-$JOB_COMPLETION_INDEX-of-$SHARDS.state""#
        )),
        "{line}"
    );
}

#[test]
fn the_merge_job_reads_every_state_from_the_same_claim() {
    let docs = manifests();
    let shards_job = find(&docs, "Job", "woundsim-shards");
    let job = find(&docs, "Job", "woundsim-merge");
    assert_eq!(str_at(job, &["apiVersion"]), "batch/v1");
    assert_eq!(u64_at(job, &["spec", "completions"]), 1);
    let c = container(job);
    assert_eq!(
        env(c, "SHARDS"),
        env(container(shards_job), "SHARDS"),
        "the merge job must expect the shard job's count"
    );
    assert_eq!(
        str_at(c, &["image"]),
        str_at(container(shards_job), &["image"])
    );
    let mount = mount_of_claim(job, "woundsim-states");
    assert_eq!(mount, mount_of_claim(shards_job, "woundsim-states"));
    let line = command_line(c);
    assert!(
        line.contains(&format!(
            r#"woundsim merge {mount}/shard-*-of-"$SHARDS".state"#
        )),
        "{line}"
    );
    assert!(line.contains(&format!("--out {mount}/")), "{line}");
}

#[test]
fn the_image_the_jobs_run_is_the_one_the_dockerfile_builds() {
    let docs = manifests();
    let image = str_at(container(find(&docs, "Job", "woundsim-shards")), &["image"]).to_string();
    let dockerfile = fs::read_to_string(deploy("kubernetes").join("Dockerfile")).unwrap();
    assert!(
        dockerfile.contains(&format!("-t {image} ")),
        "the Dockerfile's build command tags another image than {image}"
    );
    assert!(dockerfile.contains("/usr/local/bin/woundsim"));
    // A `:latest` image defaults to imagePullPolicy Always, which fails for
    // an image built locally and in no registry.
    for name in ["woundsim-shards", "woundsim-merge"] {
        let c = container(find(&docs, "Job", name));
        assert_eq!(str_at(c, &["image"]), image);
        if image.ends_with(":latest") {
            assert_eq!(str_at(c, &["imagePullPolicy"]), "IfNotPresent", "{name}");
        }
    }
}

#[test]
fn the_slurm_scripts_are_executable_and_parse() {
    let dir = deploy("slurm");
    let mut scripts = files(&dir, ".sh");
    scripts.extend(files(&dir, ".sbatch"));
    let names: Vec<String> = scripts
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for expected in [
        "ci-test.sh",
        "local-cluster.sh",
        "merge.sbatch",
        "shards.sbatch",
        "submit.sh",
    ] {
        assert!(names.iter().any(|n| n == expected), "{expected}: {names:?}");
    }
    for script in &scripts {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(script).unwrap().permissions().mode();
            assert!(
                mode & 0o111 == 0o111,
                "{} is not executable (mode {mode:o})",
                script.display()
            );
        }
        let text = fs::read_to_string(script).unwrap();
        assert!(
            text.starts_with("#!/usr/bin/env bash\n"),
            "{}",
            script.display()
        );
        let out = std::process::Command::new("bash")
            .arg("-n")
            .arg(script)
            .output()
            .expect("bash runs");
        assert!(
            out.status.success(),
            "bash -n {}: {}",
            script.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
