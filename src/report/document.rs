//! A small document model for reports: a title and blocks (headings, paragraphs, lists,
//! tables, code, figures and cards), each rendered to the terminal, to Markdown and to one
//! self-contained HTML page. A report is built once and rendered three ways, so its Markdown
//! and HTML cannot drift apart.

use super::table::{html_escape, TextTable};

/// A run of inline text: plain, `code`, or bold.
#[derive(Debug, Clone, PartialEq)]
pub enum Inline {
    Plain(String),
    Code(String),
    Bold(String),
}

/// Inline text. [`Text::from`] reads Markdown-style `code` spans out of a plain string.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Text(pub Vec<Inline>);

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text(
            s.split('`')
                .enumerate()
                .filter(|(_, part)| !part.is_empty())
                .map(|(i, part)| {
                    if i % 2 == 1 {
                        Inline::Code(part.to_string())
                    } else {
                        Inline::Plain(part.to_string())
                    }
                })
                .collect(),
        )
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text::from(s.as_str())
    }
}

impl Text {
    /// The whole text in bold.
    pub fn bold(s: impl Into<String>) -> Text {
        Text(vec![Inline::Bold(s.into())])
    }

    /// Appends more text.
    pub fn then(mut self, more: impl Into<Text>) -> Text {
        self.0.extend(more.into().0);
        self
    }

    fn markdown(&self) -> String {
        self.0
            .iter()
            .map(|i| match i {
                Inline::Plain(s) => s.clone(),
                Inline::Code(s) => code_span(s),
                Inline::Bold(s) => format!("**{s}**"),
            })
            .collect()
    }

    fn html(&self) -> String {
        self.0
            .iter()
            .map(|i| match i {
                Inline::Plain(s) => html_escape(s),
                Inline::Code(s) => format!("<code>{}</code>", html_escape(s)),
                Inline::Bold(s) => format!("<b>{}</b>", html_escape(s)),
            })
            .collect()
    }

    fn plain(&self) -> String {
        self.0
            .iter()
            .map(|i| match i {
                Inline::Plain(s) | Inline::Code(s) | Inline::Bold(s) => s.as_str(),
            })
            .collect()
    }
}

/// A Markdown code span of `s`, whatever it holds: fenced by one more backtick than its
/// longest run of them, with a space inside where it begins or ends with one (CommonMark 0.31,
/// "Code spans"), so a kernel's name such as `void f<T*>(T*)` shows as it is.
fn code_span(s: &str) -> String {
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// How a tag on a card looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Neutral,
    Good,
    Warning,
}

/// One block of a document.
#[derive(Debug, Clone)]
pub enum Block {
    Heading(u8, Text),
    Paragraph(Text),
    /// The first thing to read (the answer, a verdict): highlighted.
    Lead(Text),
    List(Vec<Text>),
    /// A list whose items are highlighted like [`Block::Lead`].
    Leads(Vec<Text>),
    Table(TextTable),
    Code {
        lang: String,
        text: String,
    },
    /// A chart: inline SVG in HTML, the file (if written) in Markdown.
    Figure {
        svg: String,
        file: Option<String>,
        caption: String,
    },
    /// Values each drawn against a range: a text line and a small inline SVG.
    Gauges {
        caption: String,
        items: Vec<(String, String)>,
    },
    /// A boxed section with a title and tags (in Markdown: a level-2 heading).
    Card {
        title: String,
        tags: Vec<(String, Tone)>,
        blocks: Vec<Block>,
    },
}

/// A report: a title, blocks and the page's style sheet.
#[derive(Debug, Clone)]
pub struct Document {
    pub title: String,
    pub style: &'static str,
    pub blocks: Vec<Block>,
}

impl Document {
    pub fn new(title: impl Into<String>, style: &'static str) -> Self {
        Document {
            title: title.into(),
            style,
            blocks: Vec::new(),
        }
    }

    pub fn push(&mut self, block: Block) {
        self.blocks.push(block);
    }

    /// The document as Markdown.
    pub fn to_markdown(&self) -> String {
        let mut out = format!("# {}\n\n", self.title);
        for b in &self.blocks {
            markdown_block(b, &mut out);
        }
        out
    }

    /// The document as one HTML page: style inline, nothing loaded from elsewhere.
    pub fn to_html(&self) -> String {
        let title = html_escape(&self.title);
        let mut out = format!(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title>\
             <style>{}</style></head><body>\n<h1>{title}</h1>\n",
            self.style
        );
        for b in &self.blocks {
            html_block(b, &mut out);
        }
        out.push_str("</body></html>\n");
        out
    }

    /// The document as terminal text (figures by caption only).
    pub fn to_terminal(&self) -> String {
        let mut out = format!(
            "{}\n{}\n\n",
            self.title,
            "=".repeat(self.title.chars().count())
        );
        for b in &self.blocks {
            terminal_block(b, &mut out);
        }
        out
    }
}

fn markdown_block(b: &Block, out: &mut String) {
    match b {
        Block::Heading(level, t) => out.push_str(&format!(
            "{} {}\n\n",
            "#".repeat(*level as usize),
            t.markdown()
        )),
        Block::Paragraph(t) => out.push_str(&format!("{}\n\n", t.markdown())),
        Block::Lead(t) => out.push_str(&format!("**{}**\n\n", t.markdown())),
        Block::List(items) | Block::Leads(items) => {
            for i in items {
                out.push_str(&format!("- {}\n", i.markdown()));
            }
            out.push('\n');
        }
        Block::Table(t) => {
            out.push_str(&t.to_markdown());
            out.push('\n');
        }
        Block::Code { lang, text } => {
            let text = text.trim_end_matches('\n');
            out.push_str(&format!("```{lang}\n{text}\n```\n\n"));
        }
        Block::Figure { file, caption, .. } => {
            if let Some(f) = file {
                out.push_str(&format!("![{caption}]({f})\n\n"));
            }
        }
        Block::Gauges { caption, items } => {
            out.push_str(&format!("{caption}:\n\n"));
            for (text, _) in items {
                out.push_str(&format!("- {text}\n"));
            }
            out.push('\n');
        }
        Block::Card {
            title,
            tags,
            blocks,
        } => {
            let tags: Vec<&str> = tags.iter().take(1).map(|t| t.0.as_str()).collect();
            out.push_str(&format!("## {title} - {}\n\n", tags.join(", ")));
            for b in blocks {
                markdown_block(b, out);
            }
        }
    }
}

fn html_block(b: &Block, out: &mut String) {
    match b {
        Block::Heading(level, t) => out.push_str(&format!("<h{level}>{}</h{level}>\n", t.html())),
        Block::Paragraph(t) => out.push_str(&format!("<p>{}</p>\n", t.html())),
        Block::Lead(t) => out.push_str(&format!("<p class=\"answer\">{}</p>\n", t.html())),
        Block::List(items) => {
            out.push_str("<ul>\n");
            for i in items {
                out.push_str(&format!("<li>{}</li>\n", i.html()));
            }
            out.push_str("</ul>\n");
        }
        Block::Leads(items) => {
            out.push_str("<ul>\n");
            for i in items {
                out.push_str(&format!("<li class=\"answer\">{}</li>\n", i.html()));
            }
            out.push_str("</ul>\n");
        }
        Block::Table(t) => out.push_str(&t.to_html()),
        Block::Code { text, .. } => out.push_str(&format!("<pre>{}</pre>\n", html_escape(text))),
        Block::Figure { svg, caption, .. } => out.push_str(&format!(
            "<figure>{svg}<figcaption>{}</figcaption></figure>\n",
            html_escape(caption)
        )),
        Block::Gauges { caption, items } => {
            out.push_str(&format!(
                "<table><tr><th>{}</th></tr>",
                html_escape(caption)
            ));
            for (text, svg) in items {
                out.push_str(&format!("<tr><td>{}<br>{svg}</td></tr>", html_escape(text)));
            }
            out.push_str("</table>\n");
        }
        Block::Card {
            title,
            tags,
            blocks,
        } => {
            out.push_str(&format!(
                "<div class=\"card\"><h2>{}</h2>",
                html_escape(title)
            ));
            for (tag, tone) in tags {
                let class = match tone {
                    Tone::Neutral => "tag",
                    Tone::Good => "tag recommend",
                    Tone::Warning => "tag warn",
                };
                out.push_str(&format!(
                    "<span class=\"{class}\">{}</span>",
                    html_escape(tag)
                ));
            }
            out.push('\n');
            for b in blocks {
                html_block(b, out);
            }
            out.push_str("</div>\n");
        }
    }
}

fn terminal_block(b: &Block, out: &mut String) {
    match b {
        Block::Heading(_, t) => {
            let t = t.plain();
            out.push_str(&format!("{t}\n{}\n\n", "-".repeat(t.chars().count())))
        }
        Block::Paragraph(t) | Block::Lead(t) => out.push_str(&format!("{}\n\n", t.plain())),
        Block::List(items) | Block::Leads(items) => {
            for i in items {
                out.push_str(&format!("- {}\n", i.plain()));
            }
            out.push('\n');
        }
        Block::Table(t) => {
            out.push_str(&t.render());
            out.push('\n');
        }
        Block::Code { text, .. } => {
            for line in text.lines() {
                out.push_str(&format!("    {line}\n"));
            }
            out.push('\n');
        }
        Block::Figure { file, caption, .. } => out.push_str(&format!(
            "[figure: {caption}{}]\n\n",
            file.as_ref().map(|f| format!(", {f}")).unwrap_or_default()
        )),
        Block::Gauges { caption, items } => {
            out.push_str(&format!("{caption}:\n"));
            for (text, _) in items {
                out.push_str(&format!("- {text}\n"));
            }
            out.push('\n');
        }
        Block::Card {
            title,
            tags,
            blocks,
        } => {
            let tags: Vec<&str> = tags.iter().map(|t| t.0.as_str()).collect();
            let head = format!("{title} [{}]", tags.join(", "));
            out.push_str(&format!("{head}\n{}\n\n", "-".repeat(head.chars().count())));
            for b in blocks {
                terminal_block(b, out);
            }
        }
    }
}

#[cfg(test)]
mod tests;
