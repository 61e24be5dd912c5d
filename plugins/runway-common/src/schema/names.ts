/**
 * Kubernetes name formats (DNS-1123), written once: the patterns go into
 * CRD schemas and CEL rules, the checks into validation, configuration and
 * forms.
 */

/** DNS-1123 label: a namespace, a Model name, a cluster name in configuration. @public */
export const DNS_LABEL_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
/** DNS-1123 subdomain: most object names, e.g. a Secret's. @public */
export const DNS_SUBDOMAIN_PATTERN =
  '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

/** @public */
export const DNS_LABEL = new RegExp(DNS_LABEL_PATTERN);
/** @public */
export const DNS_SUBDOMAIN = new RegExp(DNS_SUBDOMAIN_PATTERN);

/** At most 63 characters of lower-case letters, digits and '-', starting and ending alphanumeric. @public */
export function isDnsLabel(value: string): boolean {
  return value.length <= 63 && DNS_LABEL.test(value);
}

/** At most 253 characters of DNS labels joined by '.'. @public */
export function isDnsSubdomain(value: string): boolean {
  return value.length <= 253 && DNS_SUBDOMAIN.test(value);
}
