use super::*;

#[test]
fn csv_types_follow_weka() {
    let text = "a,b,c\n1,x,2.5\n?,y,\n3,x,4\n";
    let t = read_csv(Path::new("t.csv"), text.as_bytes()).unwrap();
    assert_eq!(t.attributes[0].kind, AttrKind::Numeric);
    assert_eq!(
        t.attributes[1].kind,
        AttrKind::Nominal(vec!["x".into(), "y".into()])
    );
    assert_eq!(t.rows[1], vec![None, Some(1.0), None]);
    assert_eq!(t.class_index, 2);
    assert_eq!(t.lines, vec![2, 3, 4]);
}

#[test]
fn another_separator_is_named() {
    let e = read_csv(Path::new("t.csv"), "a;b;y\n1;2;3\n".as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("t.csv:1: one column `a;b;y`: the fields are separated by `;`"),
        "{e}"
    );
    let e = read_csv(Path::new("t.csv"), "a\tb\n1\t2\n".as_bytes()).unwrap_err();
    assert!(e.to_string().contains("separated by `\\t`"), "{e}");
    // One column of its own is not refused here.
    let t = read_csv(Path::new("t.csv"), "y\n1\n".as_bytes()).unwrap();
    assert_eq!(t.column_index("LAST").unwrap(), 0, "either case");
}

/// Synthetic: inf, NaN and 1e400 are errors naming their line and column, not values that
/// turn predictions into NaN; `?` and empty cells stay missing.
#[test]
fn numbers_that_are_not_finite_are_errors() {
    for bad in ["inf", "NaN", "1e400", "-inf"] {
        let text = format!("a,b,y\n1,2,3\n4,{bad},6\n");
        let e = read_csv(Path::new("t.csv"), text.as_bytes())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("t.csv:3: column b:"), "{bad}: {e}");
        assert!(e.contains("not a finite number"), "{bad}: {e}");
    }
    let arff = "@relation r\n@attribute a numeric\n@attribute y numeric\n@data\n1,inf\n";
    let e = crate::dataset::arff::read(Path::new("t.arff"), arff.as_bytes())
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("not a finite number"), "{e}");
}

#[test]
fn a_column_named_twice_is_an_error_on_the_header() {
    let e = read_csv(Path::new("t.csv"), "a,b,a\n1,2,3\n".as_bytes())
        .err()
        .unwrap()
        .to_string();
    assert_eq!(e, "t.csv:1: column `a` is named twice (columns 1 and 3)");
    let e = read_csv(Path::new("t.csv"), "a,b,y,\n1,2,3,\n".as_bytes())
        .err()
        .unwrap()
        .to_string();
    assert_eq!(
        e,
        "t.csv:1: column 4 has no name (a comma at the end of the header?): name it, or \
         remove the empty column"
    );
}

#[test]
fn target_and_ignore() {
    let text = "a,b,c\n1,2,3\n";
    let mut t = read_csv(Path::new("t.csv"), text.as_bytes()).unwrap();
    t.set_target(Some("a")).unwrap();
    t.remove_columns(&["2".into()]).unwrap();
    assert_eq!(t.attributes.len(), 2);
    assert_eq!(t.class_index, 0);
    assert_eq!(t.rows[0], vec![Some(1.0), Some(3.0)]);
    assert!(t.remove_columns(&["a".into()]).is_err());
}

/// A column named by a number that is another column's position is neither; one named by
/// its own position, or by a number past the last column, is itself.
#[test]
fn a_number_that_names_another_column_is_ambiguous() {
    let t = read_csv(Path::new("t.csv"), "3,1,2\n1,2,3\n".as_bytes()).unwrap();
    let e = t.column_index("2").unwrap_err().to_string();
    assert!(
        e.contains("column `2` is ambiguous: column 3 is named `2`, and column 2 is `1`"),
        "{e}"
    );
    let t = read_csv(Path::new("t.csv"), "a,2,9\n1,2,3\n".as_bytes()).unwrap();
    assert_eq!(t.column_index("2").unwrap(), 1);
    assert_eq!(t.column_index("9").unwrap(), 2);
    assert_eq!(t.column_index("1").unwrap(), 0);
}
