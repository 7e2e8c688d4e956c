//! Loops compiled twice, for any x86-64 and for AVX2, the build picked at run time: the
//! learning layer's and the searches' vector loops use it. For floating-point loops AVX2 only
//! widens the vectors: the operations and their order stay (Rust never fuses a multiply and an
//! add), so both builds give the same bits, which each user's tests check.

/// `avx2_dispatch! { /// docs
/// pub fn name(a: A, b: B) -> R = body, avx2 name_avx2; }` defines `name`, which calls
/// `body` (an `#[inline(always)]` function of the same arguments) compiled for AVX2 where the
/// CPU has it, else the portable build, and the AVX2 wrapper `name_avx2`.
#[macro_export]
macro_rules! avx2_dispatch {
    (
        $(#[$meta:meta])*
        $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)?
            = $body:ident, avx2 $fast:ident;
    ) => {
        $(#[$meta])*
        $vis fn $name($($arg: $ty),*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2, the one requirement of the AVX2 build.
                return unsafe { $fast($($arg),*) };
            }
            $body($($arg),*)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        unsafe fn $fast($($arg: $ty),*) $(-> $ret)? {
            $body($($arg),*)
        }
    };
}
