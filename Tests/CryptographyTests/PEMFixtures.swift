/// Keys made with the openssl command line for these tests only (never used anywhere else).
enum PEMFixtures {
    /// `openssl ecparam -genkey -name prime256v1`: SEC1, with the EC PARAMETERS block it writes first.
    static let sec1 = """
        -----BEGIN EC PARAMETERS-----
        BggqhkjOPQMBBw==
        -----END EC PARAMETERS-----
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEIEkfomdJVxETT2zN+wnTgRYlheq4QOgB+uP54UnY4OafoAoGCCqGSM49
        AwEHoUQDQgAEWQwaWnt6AwrfJCAZJJlF2pL6oIOO514Bdc0uveXTD+MOg92bRO0C
        Rxbwvvm0+4Gb5MSp67V8hmU5/6Jnpx7emw==
        -----END EC PRIVATE KEY-----

        """
    /// `openssl pkey -pubout` of `sec1`.
    static let sec1Public = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEWQwaWnt6AwrfJCAZJJlF2pL6oIOO
        514Bdc0uveXTD+MOg92bRO0CRxbwvvm0+4Gb5MSp67V8hmU5/6Jnpx7emw==
        -----END PUBLIC KEY-----

        """
    /// An RSA-1024 public key.
    static let rsa1024Public = """
        -----BEGIN PUBLIC KEY-----
        MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQCrD4DZLnaVJYTs8j6/DS700KqO
        EinkExW8K2fbwA7pPff5cu0yDJnfv6xhtuGtVRnIQDCY8WxBh08xVMtfHxeW6Jd8
        nJXl0Kk7vVbIOlAWKdVo+gtxK+ZxWfyPOVOzDdudPl90pqIxLyoc8/6FFCJvg/9Y
        zB2QIDVrebBN5JK+uwIDAQAB
        -----END PUBLIC KEY-----

        """
    /// A P-384 public key.
    static let p384Public = """
        -----BEGIN PUBLIC KEY-----
        MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAE0ewkawzeTdq+mgJp0W4oL7iElOUpmTkh
        NRUVbNpZZOoDy8fubF+kQAcIVIXVRWc+sYDOafT8Yq4Q7DS/ObzcFIILSKG3oIh5
        Sjn/sH7SmTY/tSNkIRWMx8LUzihuSG8B
        -----END PUBLIC KEY-----

        """
    /// A P-256 public key written with explicit curve parameters instead of the named curve.
    static let explicitParametersPublic = """
        -----BEGIN PUBLIC KEY-----
        MIIBSzCCAQMGByqGSM49AgEwgfcCAQEwLAYHKoZIzj0BAQIhAP////8AAAABAAAA
        AAAAAAAAAAAA////////////////MFsEIP////8AAAABAAAAAAAAAAAAAAAA////
        ///////////8BCBaxjXYqjqT57PrvVV2mIa8ZR0GsMxTsPY7zjw+J9JgSwMVAMSd
        NgiG5wSTamZ44ROdJreBn36QBEEEaxfR8uEsQkf4vOblY6RA8ncDfYEt6zOg9KE5
        RdiYwpZP40Li/hp/m47n60p8D54WK84zV2sxXs7LtkBoN79R9QIhAP////8AAAAA
        //////////+85vqtpxeehPO5ysL8YyVRAgEBA0IABMs1RH7WtXSe+5ukuGSNa2Vm
        E+3iUFZMh4nWBpKTfOnzc8Up6g3797+SKm7scTmXST5JaJYXp1znCDPif7Aq+4k=
        -----END PUBLIC KEY-----

        """
    /// An Ed25519 key encrypted with a passphrase (PKCS#8 `ENCRYPTED PRIVATE KEY`).
    static let encrypted = """
        -----BEGIN ENCRYPTED PRIVATE KEY-----
        MIGbMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAhlAo9Ulm695wICCAAw
        DAYIKoZIhvcNAgkFADAdBglghkgBZQMEASoEELIS7dW6xIBuA8ArrirP8yEEQAIy
        rGMTiqr92QHHG+LhJtBkBR2MHRjTx+qT+yqJye5TJRZpZnFZUznxkp8BaEA88yj8
        eSE9jBAkZP4E446LOBk=
        -----END ENCRYPTED PRIVATE KEY-----

        """
}
