//! GPGPU-Sim, advise's second collection backend: where the simulator is, which
//! configuration a campaign uses, and how a variant program runs under it.
//!
//! GPGPU-Sim (accel-sim's gpgpu-sim_distribution) replaces the CUDA runtime: a program linked
//! with `-cudart shared` and started with the simulator's `libcudart.so` first on
//! `LD_LIBRARY_PATH` runs its kernels' PTX on a cycle-level model of a GPU and prints the
//! statistics `profile::gpgpusim` reads. Every run needs its own directory holding the
//! configuration (`gpgpusim.config` and the interconnect file it names), since the simulator
//! reads them from the working directory and writes scratch files there.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Serialize;

use crate::error::{Error, Result};

/// Where a built GPGPU-Sim lives (its `setup_environment` sets it).
pub const ROOT_ENV: &str = "GPGPUSIM_ROOT";
/// The CUDA toolkit GPGPU-Sim was built with; the simulator runs its `bin/cuobjdump`.
pub const CUDA_ENV: &str = "CUDA_INSTALL_PATH";
/// The commit of accel-sim/gpgpu-sim_distribution (branch dev) the project's data was
/// simulated with.
pub const PINNED_COMMIT: &str = "667834cfe5214523edd7769aeab77f91b7137686";

const MISSING: &str = "GPGPU-Sim not found: set GPGPUSIM_ROOT to a built checkout of \
    accel-sim/gpgpu-sim_distribution (commit 667834cf of branch dev was used for the \
    project's data; its README explains the build) and CUDA_INSTALL_PATH to the CUDA 11 \
    toolkit it was built with. docs/simulator.md says what advise needs of it.";

/// A built simulator.
#[derive(Debug, Clone, Serialize)]
pub struct Simulator {
    pub root: PathBuf,
    /// The folder of the simulator's `libcudart.so`.
    pub lib_dir: PathBuf,
    pub cuda: PathBuf,
    /// The build string of `ROOT/version`, when present.
    pub version: String,
}

impl Simulator {
    /// Finds the simulator from `GPGPUSIM_ROOT` and `CUDA_INSTALL_PATH`.
    pub fn find() -> Result<Simulator> {
        Simulator::find_with(std::env::var_os(ROOT_ENV), std::env::var_os(CUDA_ENV))
    }

    /// `find` with the environment passed in, for tests.
    pub fn find_with(root: Option<OsString>, cuda: Option<OsString>) -> Result<Simulator> {
        let root = root
            .filter(|r| !r.is_empty())
            .map(PathBuf::from)
            .ok_or_else(|| Error::tool("gpgpu-sim", MISSING))?;
        if !root.is_dir() {
            return Err(Error::tool(
                "gpgpu-sim",
                format!(
                    "GPGPUSIM_ROOT={} is not a folder. {MISSING}",
                    root.display()
                ),
            ));
        }
        let lib_dir = find_runtime(&root).ok_or_else(|| {
            Error::tool(
                "gpgpu-sim",
                format!(
                    "{}/lib/<compiler>/<cuda>/release/libcudart.so not found: GPGPU-Sim in \
                 GPGPUSIM_ROOT is not built yet",
                    root.display()
                ),
            )
        })?;
        let cuda = cuda
            .filter(|c| !c.is_empty())
            .map(PathBuf::from)
            .ok_or_else(|| {
                Error::tool("gpgpu-sim", 
                "CUDA_INSTALL_PATH is not set: GPGPU-Sim runs $CUDA_INSTALL_PATH/bin/cuobjdump \
                 to read a program's PTX; set it to the CUDA toolkit GPGPU-Sim was built with",
            )
            })?;
        if !cuda.join("bin").join("cuobjdump").is_file() {
            return Err(Error::tool(
                "gpgpu-sim",
                format!(
                    "{}/bin/cuobjdump does not exist: CUDA_INSTALL_PATH must be a CUDA toolkit \
                 folder with bin/cuobjdump and bin/ptxas",
                    cuda.display()
                ),
            ));
        }
        // `const char *g_gpgpusim_version_string = "GPGPU-Sim Simulator Version 4.2.0 ";`
        let version = fs::read_to_string(root.join("version"))
            .ok()
            .and_then(|v| {
                let start = v.find("Version ")? + "Version ".len();
                let rest = &v[start..];
                Some(rest[..rest.find('"')?].trim().to_string())
            })
            .unwrap_or_default();
        Ok(Simulator {
            root,
            lib_dir,
            cuda,
            version,
        })
    }

    /// The folder of a configuration: an existing folder as given, else a name under the
    /// simulator's `configs/tested-cfgs/` (such as `SM7_QV100`).
    pub fn config_dir(&self, spec: &str) -> Result<PathBuf> {
        let as_dir = PathBuf::from(spec);
        let dir = if as_dir.is_dir() {
            as_dir
        } else {
            self.root.join("configs").join("tested-cfgs").join(spec)
        };
        if dir.join("gpgpusim.config").is_file() {
            return Ok(dir);
        }
        let known: Vec<String> = fs::read_dir(self.root.join("configs").join("tested-cfgs"))
            .map(|rd| {
                let mut v: Vec<String> = rd
                    .filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect();
                v.sort();
                v
            })
            .unwrap_or_default();
        Err(Error::Usage(format!(
            "no GPGPU-Sim configuration `{spec}`: give a folder with gpgpusim.config or one of \
             {}",
            if known.is_empty() {
                "the simulator's configs/tested-cfgs".to_string()
            } else {
                known.join(", ")
            }
        )))
    }

    /// The command that runs `bin` under the simulator in `run_dir`. `functional` asks for
    /// GPGPU-Sim's functional mode (results without timing, far faster).
    pub fn command(
        &self,
        bin: &Path,
        args: &[String],
        run_dir: &Path,
        functional: bool,
    ) -> Command {
        let mut cmd = Command::new(bin);
        cmd.args(args).current_dir(run_dir);
        let mut ld = OsString::from(self.lib_dir.as_os_str());
        if let Some(old) = std::env::var_os("LD_LIBRARY_PATH").filter(|v| !v.is_empty()) {
            ld.push(":");
            ld.push(old);
        }
        cmd.env("LD_LIBRARY_PATH", ld)
            .env(ROOT_ENV, &self.root)
            .env(CUDA_ENV, &self.cuda)
            .env("PTXAS_CUDA_INSTALL_PATH", &self.cuda)
            // What setup_environment sets for CUDA 6 and later: read the PTX that cuobjdump
            // extracts into the run directory.
            .env("PTX_SIM_USE_PTX_FILE", "1.ptx")
            .env("PTX_SIM_KERNELFILE", "_1.ptx")
            .env("CUOBJDUMP_SIM_FILE", "jj")
            .env("PTX_SIM_MODE_FUNC", if functional { "1" } else { "0" });
        cmd
    }
}

/// `ROOT/lib/<gcc>/<cuda>/release` holding `libcudart.so`.
fn find_runtime(root: &Path) -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = Vec::new();
    for compiler in fs::read_dir(root.join("lib")).ok()?.flatten() {
        for cuda in fs::read_dir(compiler.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let dir = cuda.path().join("release");
            if dir.join("libcudart.so").exists() {
                found.push(dir);
            }
        }
    }
    found.sort();
    found.pop()
}

/// A campaign's simulated GPU: a configuration folder plus options that override it.
#[derive(Debug, Clone, Serialize)]
pub struct SimConfig {
    /// The folder's name (`SM7_QV100`).
    pub name: String,
    pub dir: PathBuf,
    /// `gpgpu_n_clusters=4`: appended to the configuration, so they win.
    pub overrides: Vec<(String, String)>,
}

impl SimConfig {
    pub fn new(dir: PathBuf, overrides: Vec<(String, String)>) -> SimConfig {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| dir.display().to_string());
        SimConfig {
            name,
            dir,
            overrides,
        }
    }

    /// `SM7_QV100` or `SM7_QV100 with gpgpu_n_clusters=4`.
    pub fn describe(&self) -> String {
        if self.overrides.is_empty() {
            return self.name.clone();
        }
        let o: Vec<String> = self
            .overrides
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        format!("{} with {}", self.name, o.join(", "))
    }

    /// The configuration file as a run sees it: the folder's file, then the overrides.
    pub fn text(&self) -> Result<String> {
        let path = self.dir.join("gpgpusim.config");
        let mut text = fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        // The shipped files end without a newline: an appended option must start a line.
        text.push('\n');
        for (k, v) in &self.overrides {
            text.push_str(&format!("-{k} {v}\n"));
        }
        Ok(text)
    }

    /// The value an option takes in this configuration (the last setting wins, as in
    /// GPGPU-Sim's option parser).
    pub fn option(&self, name: &str) -> Result<Option<String>> {
        let text = self.text()?;
        let mut value = None;
        for line in text.lines() {
            let body = line.split('#').next().unwrap_or("").trim();
            let mut parts = body.split_whitespace();
            if parts.next() == Some(&format!("-{name}")) {
                value = parts.next().map(str::to_string);
            }
        }
        Ok(value)
    }

    /// The simulated core clock in MHz (first field of `-gpgpu_clock_domains`).
    pub fn core_clock_mhz(&self) -> Result<Option<f64>> {
        Ok(self
            .option("gpgpu_clock_domains")?
            .and_then(|v| v.split(':').next().and_then(|c| c.parse().ok())))
    }

    /// Writes the configuration and the interconnect files it needs into `run_dir`.
    pub fn install(&self, run_dir: &Path) -> Result<()> {
        fs::create_dir_all(run_dir).map_err(|e| Error::io(run_dir, e))?;
        let config = run_dir.join("gpgpusim.config");
        fs::write(&config, self.text()?).map_err(|e| Error::io(&config, e))?;
        for entry in fs::read_dir(&self.dir).map_err(|e| Error::io(&self.dir, e))? {
            let path = entry.map_err(|e| Error::io(&self.dir, e))?.path();
            if path.extension().is_some_and(|e| e == "icnt") {
                let to = run_dir.join(path.file_name().unwrap_or_default());
                fs::copy(&path, &to).map_err(|e| Error::io(&path, e))?;
            }
        }
        Ok(())
    }

    /// A digest of the configuration as run (file plus overrides), for provenance.
    pub fn digest(&self) -> Result<String> {
        Ok(format!(
            "{:016x}",
            crate::dataset::import::fnv1a(self.text()?.as_bytes())
        ))
    }
}

/// Parses `KEY=VALUE` (`gpgpu_n_clusters=4`); a leading `-` on the key is accepted.
pub fn parse_override(s: &str) -> Result<(String, String)> {
    let (k, v) = s.split_once('=').ok_or_else(|| {
        Error::Usage(format!(
            "`{s}` is not a simulator option: expected KEY=VALUE such as gpgpu_n_clusters=4"
        ))
    })?;
    let k = k.trim().trim_start_matches('-');
    if k.is_empty() || v.trim().is_empty() || k.contains(char::is_whitespace) {
        return Err(Error::Usage(format!(
            "`{s}` is not a simulator option: expected KEY=VALUE such as gpgpu_n_clusters=4"
        )));
    }
    Ok((k.to_string(), v.trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_root() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        let lib = d.path().join("lib/gcc-12/cuda-11080/release");
        fs::create_dir_all(&lib).unwrap();
        fs::write(lib.join("libcudart.so"), "").unwrap();
        let cfg = d.path().join("configs/tested-cfgs/SM7_TEST");
        fs::create_dir_all(&cfg).unwrap();
        fs::write(
            cfg.join("gpgpusim.config"),
            "# synthetic test configuration\n-gpgpu_n_clusters 80\n\
             -gpgpu_clock_domains 1132.0:1132.0:1132.0:850.0 # clocks\n#-gpgpu_n_clusters 2",
        )
        .unwrap();
        fs::write(cfg.join("net.icnt"), "topology = fly").unwrap();
        let cuda = d.path().join("cuda/bin");
        fs::create_dir_all(&cuda).unwrap();
        fs::write(cuda.join("cuobjdump"), "").unwrap();
        d
    }

    #[test]
    fn missing_simulator_says_what_to_set() {
        let e = Simulator::find_with(None, None).unwrap_err().to_string();
        assert!(e.contains("GPGPUSIM_ROOT"), "{e}");
        let d = fake_root();
        let e = Simulator::find_with(Some(d.path().into()), None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("CUDA_INSTALL_PATH"), "{e}");
    }

    #[test]
    fn overrides_are_appended_on_their_own_line() {
        let d = fake_root();
        let sim = Simulator::find_with(Some(d.path().into()), Some(d.path().join("cuda").into()))
            .unwrap();
        assert!(sim.lib_dir.ends_with("release"));
        let cfg = SimConfig::new(
            sim.config_dir("SM7_TEST").unwrap(),
            vec![parse_override("gpgpu_n_clusters=4").unwrap()],
        );
        assert_eq!(
            cfg.option("gpgpu_n_clusters").unwrap().as_deref(),
            Some("4")
        );
        assert_eq!(cfg.core_clock_mhz().unwrap(), Some(1132.0));
        assert_eq!(cfg.describe(), "SM7_TEST with gpgpu_n_clusters=4");
        let run = d.path().join("run");
        cfg.install(&run).unwrap();
        let text = fs::read_to_string(run.join("gpgpusim.config")).unwrap();
        assert!(text.ends_with("\n-gpgpu_n_clusters 4\n"), "{text}");
        assert!(run.join("net.icnt").is_file());
        let e = sim.config_dir("NOPE").unwrap_err().to_string();
        assert!(e.contains("SM7_TEST"), "{e}");
    }

    #[test]
    fn bad_overrides_are_errors() {
        for s in ["gpgpu_n_clusters", "=4", "a b=1", "x="] {
            assert!(parse_override(s).is_err(), "{s}");
        }
        assert_eq!(
            parse_override("-gpgpu_n_clusters=8").unwrap(),
            ("gpgpu_n_clusters".to_string(), "8".to_string())
        );
    }
}
