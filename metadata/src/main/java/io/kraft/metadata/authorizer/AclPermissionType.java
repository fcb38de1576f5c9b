package io.kraft.metadata.authorizer;

/** Whether an ACL allows or denies; ANY appears only in filters. */
public enum AclPermissionType {
    UNKNOWN(0), ANY(1), DENY(2), ALLOW(3);

    private static final AclPermissionType[] BY_CODE = values();

    private final byte code;

    AclPermissionType(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    public static AclPermissionType fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : UNKNOWN;
    }

    /** Whether an ACL may have this permission (ALLOW or DENY). */
    public boolean isConcrete() {
        return this == ALLOW || this == DENY;
    }

    public String displayName() {
        return AclNames.camel(name());
    }
}
