use super::*;

#[test]
fn separates_three_clusters() {
    let mut x = Vec::new();
    let mut y = Vec::new();
    for (c, cx, cy) in [(64u32, 0.0, 0.0), (128, 5.0, 0.0), (256, 0.0, 5.0)] {
        for d in [-0.3, 0.0, 0.3] {
            x.push(vec![cx + d, cy - d]);
            y.push(c);
        }
    }
    let m = Svc::fit(&x, &y, &SvcParams::default()).unwrap();
    assert_eq!(m.predict(&[0.2, 0.1]), 64);
    assert_eq!(m.predict(&[4.8, 0.3]), 128);
    assert_eq!(m.predict(&[0.1, 5.2]), 256);
    for (r, c) in x.iter().zip(&y) {
        assert_eq!(m.predict(r), *c);
    }
}

#[test]
fn one_class_predicts_it_and_bad_input_is_an_error() {
    let m = Svc::fit(&[vec![1.0], vec![2.0]], &[32, 32], &SvcParams::default()).unwrap();
    assert_eq!(m.predict(&[9.0]), 32);
    assert!(Svc::fit(&[], &[], &SvcParams::default()).is_err());
}
