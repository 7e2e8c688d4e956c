use super::*;

fn sample() -> Document {
    let mut d = Document::new("A <report>", "body{}");
    d.push(Block::Lead("Try `SHMEM` first".into()));
    let mut t = TextTable::new(["name", "value"]);
    t.push(["a|b", "1.5"]);
    d.push(Block::Card {
        title: "SHMEM".into(),
        tags: vec![
            ("recommend".into(), Tone::Good),
            ("low".into(), Tone::Warning),
        ],
        blocks: vec![
            Block::Table(t),
            Block::Code {
                lang: "cuda".into(),
                text: "x < y;\n".into(),
            },
        ],
    });
    d
}

#[test]
fn one_document_three_renderings() {
    let d = sample();
    let md = d.to_markdown();
    assert!(md.starts_with("# A <report>\n\n**Try `SHMEM` first**\n\n## SHMEM - recommend\n"));
    assert!(md.contains("| a\\|b | 1.5 |") && md.contains("```cuda\nx < y;\n```"));
    let html = d.to_html();
    assert!(html.contains("<title>A &lt;report&gt;</title>"));
    assert!(html.contains("<p class=\"answer\">Try <code>SHMEM</code> first</p>"));
    assert!(html.contains("<span class=\"tag warn\">low</span>"));
    assert!(html.contains("<pre>x &lt; y;\n</pre>") && html.ends_with("</body></html>\n"));
    let term = d.to_terminal();
    assert!(term.contains("SHMEM [recommend, low]") && term.contains("    x < y;"));
}

#[test]
fn a_code_span_holds_any_name_as_it_is() {
    assert_eq!(code_span("nbody"), "`nbody`");
    assert_eq!(
        code_span("void f<T*>(T*, int_t)"),
        "`void f<T*>(T*, int_t)`"
    );
    assert_eq!(code_span("a`b"), "``a`b``");
    assert_eq!(code_span("`a``"), "``` `a`` ```");
}
