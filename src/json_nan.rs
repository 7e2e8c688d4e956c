//! Reading back JSON that held NaN. serde_json writes a NaN float as `null` (JSON has no NaN),
//! and then refuses `null` where it expects a float. Models and advisors keep missing values
//! as NaN, so they are read through this deserializer: it is serde_json's `Value` with one
//! difference, `null` read as a float is NaN. `null` still means `None` for an `Option`.

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess,
    SeqAccess, VariantAccess, Visitor,
};
use serde_json::{Map, Value};

/// Parses `text` into `T`, reading `null` floats as NaN.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    let v: Value = serde_json::from_str(text)?;
    from_value(v)
}

/// Converts a parsed value into `T`, reading `null` floats as NaN.
pub fn from_value<T: DeserializeOwned>(v: Value) -> Result<T, serde_json::Error> {
    T::deserialize(NanAware(v))
}

struct NanAware(Value);

impl<'de> Deserializer<'de> for NanAware {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Number(n) => n.deserialize_any(visitor),
            Value::String(s) => visitor.visit_string(s),
            Value::Array(a) => visitor.visit_seq(Seq(a.into_iter())),
            Value::Object(m) => visitor.visit_map(Obj {
                iter: m.into_iter(),
                value: None,
            }),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => visitor.visit_f64(f64::NAN),
            other => NanAware(other).deserialize_any(visitor),
        }
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => visitor.visit_f32(f32::NAN),
            other => NanAware(other).deserialize_any(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            other => visitor.visit_some(NanAware(other)),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::String(s) => visitor.visit_enum(s.into_deserializer()),
            Value::Object(m) if m.len() == 1 => {
                let (k, v) = m
                    .into_iter()
                    .next()
                    .ok_or_else(|| de::Error::custom("empty enum"))?;
                visitor.visit_enum(Enum(k, v))
            }
            _ => Err(de::Error::custom(
                "expected an enum: a string or an object with one key",
            )),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

struct Seq(std::vec::IntoIter<Value>);

impl<'de> SeqAccess<'de> for Seq {
    type Error = serde_json::Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Self::Error> {
        self.0
            .next()
            .map(|v| seed.deserialize(NanAware(v)))
            .transpose()
    }
}

struct Obj {
    iter: <Map<String, Value> as IntoIterator>::IntoIter,
    value: Option<Value>,
}

impl<'de> MapAccess<'de> for Obj {
    type Error = serde_json::Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        match self.iter.next() {
            Some((k, v)) => {
                self.value = Some(v);
                seed.deserialize(k.into_deserializer()).map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        let v = self
            .value
            .take()
            .ok_or_else(|| de::Error::custom("a map value without its key"))?;
        seed.deserialize(NanAware(v))
    }
}

struct Enum(String, Value);

impl<'de> EnumAccess<'de> for Enum {
    type Error = serde_json::Error;
    type Variant = NanAware;
    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Self::Variant), Self::Error> {
        let tag = seed.deserialize(self.0.into_deserializer())?;
        Ok((tag, NanAware(self.1)))
    }
}

impl<'de> VariantAccess<'de> for NanAware {
    type Error = serde_json::Error;
    fn unit_variant(self) -> Result<(), Self::Error> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, Self::Error> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.deserialize_any(visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.deserialize_any(visitor)
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Serialize, Deserialize, PartialEq)]
    enum Kind {
        Plain,
        Rows(Vec<Vec<f64>>),
        Named { x: f64 },
    }

    #[derive(Debug, Serialize, Deserialize)]
    struct Doc {
        rows: Vec<Vec<f64>>,
        ranges: Vec<(f64, f64)>,
        maybe: Option<f64>,
        name: Option<String>,
        kinds: Vec<Kind>,
    }

    #[test]
    fn nan_survives_a_round_trip_and_none_stays_none() {
        let d = Doc {
            rows: vec![vec![1.0, f64::NAN]],
            ranges: vec![(f64::NAN, 2.0)],
            maybe: None,
            name: Some("a".into()),
            kinds: vec![
                Kind::Plain,
                Kind::Rows(vec![vec![f64::NAN]]),
                Kind::Named { x: 3.0 },
            ],
        };
        let text = serde_json::to_string(&d).unwrap();
        assert!(
            serde_json::from_str::<Doc>(&text).is_err(),
            "plain serde_json refuses null"
        );
        let back: Doc = super::from_str(&text).unwrap();
        assert!(back.rows[0][1].is_nan());
        assert_eq!(back.rows[0][0], 1.0);
        assert!(back.ranges[0].0.is_nan());
        assert_eq!(back.maybe, None);
        assert_eq!(back.name.as_deref(), Some("a"));
        assert_eq!(back.kinds[0], Kind::Plain);
        assert_eq!(back.kinds[2], Kind::Named { x: 3.0 });
        match &back.kinds[1] {
            Kind::Rows(r) => assert!(r[0][0].is_nan()),
            k => panic!("{k:?}"),
        }
    }
}
