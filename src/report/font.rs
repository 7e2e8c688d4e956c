//! The one font of every chart: DejaVu Sans compiled into the binary
//! (assets/fonts/README.md), so SVG and PNG text is laid out the same on machines without
//! fonts. plotters' `ab_glyph` renderer draws only fonts registered at run time.

use std::sync::Once;

use plotters::style::{register_font, FontStyle};

const DEJAVU_SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Registers the font as `sans-serif`, once per process.
pub fn register() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Fails only for a malformed font file, which the test below rules out.
        let _ = register_font("sans-serif", FontStyle::Normal, DEJAVU_SANS);
    });
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_embedded_font_registers() {
        assert!(plotters::style::register_font(
            "sans-serif",
            plotters::style::FontStyle::Normal,
            super::DEJAVU_SANS
        )
        .is_ok());
    }
}
