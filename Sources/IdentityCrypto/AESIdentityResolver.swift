import BeaconCore
import BeaconWire
import CCrypto
import Synchronization

/// `ah` over libcrypto's AES-128-ECB (EVP), one keyed cipher context per IRK, so a lookup costs one
/// block encryption per key and no key schedule (Core Spec Vol 3, Part H, §2.2.2; byte order in
/// `IdentityResolver`).
///
/// Computation only: no file, socket or clock. An EVP context keeps a partial-block buffer that
/// `EVP_EncryptUpdate` writes, so the contexts are behind one mutex, taken once per lookup.
package final class AESIdentityResolver: IdentityResolver {
    /// The EVP contexts; `OpaquePointer` is not Sendable, and every use is under `contexts`' lock.
    private struct Contexts: @unchecked Sendable {
        var pointers: [OpaquePointer]
    }

    private let contexts: Mutex<Contexts>
    package let keyCount: Int

    package init(keys: [IdentityResolvingKey]) {
        var pointers: [OpaquePointer] = []
        for key in keys {
            guard let ctx = EVP_CIPHER_CTX_new() else { fatalError("EVP_CIPHER_CTX_new: out of memory") }
            let ok = key.bytes.withUnsafeBufferPointer { k in
                EVP_EncryptInit_ex(ctx, EVP_aes_128_ecb(), nil, k.baseAddress, nil)
            }
            precondition(ok == 1, "EVP_EncryptInit_ex(aes-128-ecb) failed")
            EVP_CIPHER_CTX_set_padding(ctx, 0)
            pointers.append(ctx)
        }
        keyCount = keys.count
        contexts = Mutex(Contexts(pointers: pointers))
    }

    deinit {
        contexts.withLock { c in
            for ctx in c.pointers { EVP_CIPHER_CTX_free(ctx) }
        }
    }

    /// A resolver for `keys`, as `Pipeline` takes it.
    package static let factory: IdentityResolverFactory = { keys in AESIdentityResolver(keys: keys) }

    package func resolve(prand: UInt32, hash: UInt32) -> Int? {
        contexts.withLock { c in
            for (i, ctx) in c.pointers.enumerated() where Self.ah(ctx, prand) == hash & 0xFF_FFFF { return i }
            return nil
        }
    }

    /// `ah(k, prand)` for key `index`.
    package func hash(key index: Int, prand: UInt32) -> UInt32 {
        contexts.withLock { c in Self.ah(c.pointers[index], prand) }
    }

    /// e(k, r') mod 2^24 with r' = 13 zero octets ‖ prand (most significant octet first); the result
    /// is the last three octets of the cipher block, most significant first.
    private static func ah(_ ctx: OpaquePointer, _ prand: UInt32) -> UInt32 {
        var block: (UInt64, UInt64) = (0, 0)
        var out: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &block) { b in
            b[13] = UInt8(truncatingIfNeeded: prand >> 16)
            b[14] = UInt8(truncatingIfNeeded: prand >> 8)
            b[15] = UInt8(truncatingIfNeeded: prand)
        }
        var written: Int32 = 0
        let ok = withUnsafeBytes(of: &block) { input in
            withUnsafeMutableBytes(of: &out) { output in
                EVP_EncryptUpdate(
                    ctx, output.baseAddress!.assumingMemoryBound(to: UInt8.self), &written,
                    input.baseAddress!.assumingMemoryBound(to: UInt8.self), 16)
            }
        }
        precondition(ok == 1 && written == 16, "EVP_EncryptUpdate(aes-128-ecb) failed")
        return withUnsafeBytes(of: &out) { o in UInt32(o[13]) << 16 | UInt32(o[14]) << 8 | UInt32(o[15]) }
    }
}
