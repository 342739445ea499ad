//! Bitsets over guesses or table lanes, a `u64` word per 64 members: the one helper
//! the scan ([`super::scan`]) and the kernels ([`super::kernels`]) both read them with.
//! A leaf: it imports nothing of the search.

/// The members of the bitset `bits`, in order.
pub(super) fn members(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                w * 64 + bit
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_lists_the_set_bits_in_order() {
        let bits = [0b1001u64, 0, 1 << 63, u64::MAX >> 62];
        let got: Vec<usize> = members(&bits).collect();
        assert_eq!(got, [0, 3, 191, 192, 193]);
        assert_eq!(members(&[]).count(), 0);
    }
}
