package dev.jobc.options;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Kubernetes' name rules (apimachinery {@code validation.IsDNS1035Label}, {@code IsDNS1123Label},
 * {@code IsDNS1123Subdomain}), returning the same messages so errors read like the API server's.
 * Each method returns the list of problems; empty means valid.
 */
public final class Dns {
  private static final Pattern LABEL_1035 = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern LABEL_1123 = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern SUBDOMAIN_1123 =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  public static final int LABEL_MAX = 63;
  public static final int SUBDOMAIN_MAX = 253;

  private Dns() {}

  public static List<String> dns1035Label(String value) {
    List<String> errs = new ArrayList<>();
    if (value.length() > LABEL_MAX) {
      errs.add("must be no more than 63 characters");
    }
    if (!LABEL_1035.matcher(value).matches()) {
      errs.add(
          "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with"
              + " an alphabetic character, and end with an alphanumeric character (e.g. 'my-name', "
              + " or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
    }
    return errs;
  }

  public static List<String> dns1123Label(String value) {
    List<String> errs = new ArrayList<>();
    if (value.length() > LABEL_MAX) {
      errs.add("must be no more than 63 characters");
    }
    if (!LABEL_1123.matcher(value).matches() && SUBDOMAIN_1123.matcher(value).matches()) {
      // apimachinery: a valid subdomain of valid length that is no label has dots in it.
      errs.add("must not contain dots");
    } else if (!LABEL_1123.matcher(value).matches()) {
      errs.add(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-',"
              + " and must start and end with an alphanumeric character (e.g. 'my-name',  or"
              + " '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
    }
    return errs;
  }

  public static List<String> dns1123Subdomain(String value) {
    List<String> errs = new ArrayList<>();
    if (value.length() > SUBDOMAIN_MAX) {
      errs.add("must be no more than 253 characters");
    }
    if (!SUBDOMAIN_1123.matcher(value).matches()) {
      errs.add(
          "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-'"
              + " or '.', and must start and end with an alphanumeric character (e.g."
              + " 'example.com', regex used for validation is"
              + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
    }
    return errs;
  }
}
