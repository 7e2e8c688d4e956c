//! Writing an imported dataset's tables into its folder, and refusing a folder that holds
//! another dataset's data.

use std::path::Path;

use crate::dataset::measurements::{MeasurementRow, TimingRow};
use crate::dataset::table::write_rows;
use crate::error::{Error, Result};

use super::SwitchRow;

/// The data files an import writes; an earlier import's are replaced.
const IMPORT_DATA: [&str; 4] = [
    "measurements.csv.gz",
    "timings.csv",
    "switches.csv",
    crate::dataset::devices::DEVICE_FILE,
];

/// A usage error where `out` holds data an import does not write (a campaign's tables, its
/// `raw/` profiles or `simulator.json`, another table): the folder would mix two datasets,
/// and its readers would take the other's files for the import's. Notes and licences (`.md`,
/// `LICENSE*`) and a `source/` folder may stay.
fn refuse_other_data(out: &Path) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(out) else {
        return Ok(());
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let data = [".csv", ".csv.gz", ".json", ".json.gz", ".arff"]
            .iter()
            .any(|x| name.ends_with(x));
        if (data && !IMPORT_DATA.contains(&name.as_str())) || name == "raw" {
            return Err(Error::Usage(format!(
                "{} already holds {name}, which an import does not write: it is another \
                 dataset (a campaign or another table), and the two would mix; import into a \
                 new folder",
                out.display()
            )));
        }
    }
    Ok(())
}

/// Creates `out` and writes a dataset's three tables into it: `measurements.csv.gz` (counter
/// tables of whole spaces run to tens of MB, so they are stored compressed), `timings.csv` and
/// `switches.csv`.
pub fn write_tables(
    out: &Path,
    measurements: &[MeasurementRow],
    timings: &[TimingRow],
    switches: &[SwitchRow],
) -> Result<()> {
    refuse_other_data(out)?;
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let create = |name: &str| {
        let p = out.join(name);
        std::fs::File::create(&p).map_err(|e| Error::io(&p, e))
    };
    let gz = flate2::write::GzEncoder::new(
        create("measurements.csv.gz")?,
        flate2::Compression::default(),
    );
    write_rows(gz, measurements)?;
    write_rows(create("timings.csv")?, timings)?;
    write_rows(create("switches.csv")?, switches)
}
