//! Rebuild the program when the shipped data it carries changes (`paths::embedded` builds in
//! these folders; `include_dir` alone does not tell Cargo to watch them).
fn main() {
    for dir in ["scenarios", "assets/armies", "assets/help"] {
        println!("cargo::rerun-if-changed=../../{dir}");
    }
}
