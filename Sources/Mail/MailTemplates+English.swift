extension MailTemplates {
    /// The default subject and plain text of each kind (no HTML), in `(subject, text)` pairs.
    static let englishTexts: [MailKind: (subject: String, text: String)] = [
        .verification: (
            "Your {{appName}} verification code",
            """
            Your {{appName}} verification code is:

            {{code}}

            It expires in {{minutes}} minutes. If you did not ask for it, you can ignore this email.

            """
        ),
        .passwordReset: (
            "Reset your {{appName}} password",
            """
            Someone asked to reset the password of your {{appName}} account. Your code is:

            {{code}}

            It expires in {{minutes}} minutes. If it was not you, ignore this email: your password stays as it is.

            """
        ),
        .signIn: (
            "Your {{appName}} sign-in code",
            """
            Your {{appName}} sign-in code is:

            {{code}}

            It expires in {{minutes}} minutes. If you did not try to sign in, you can ignore this email.

            """
        ),
        .emailChange: (
            "Confirm your new {{appName}} email address",
            """
            Someone asked to move a {{appName}} account to this email address. Your code is:

            {{code}}

            It expires in {{minutes}} minutes. If it was not you, ignore this email: nothing changes.

            """
        ),
        .emailChangedNotice: (
            "Your {{appName}} email address was changed",
            """
            The email address of your {{appName}} account was changed to {{email}}.

            If you did not make this change, contact the {{appName}} team at once.

            """
        ),
        .deletion: (
            "Delete your {{appName}} account",
            """
            Someone asked to delete the {{appName}} account of this email address. To delete it, enter this code:

            {{code}}

            It expires in {{minutes}} minutes. Deleting the account cannot be undone. If it was not you, ignore this
            email: nothing is deleted.

            """
        ),
    ]
}
