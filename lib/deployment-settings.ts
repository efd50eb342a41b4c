import type { Node } from 'constructs';
import * as v from 'valibot';
import { SETTINGS } from '../functions/settings/schema.ts';

/**
 * What one deployment of a stage knows that the repository must not: its domain and certificate,
 * who is on call, where backups are copied. Read from CDK context (`-c name=value` or cdk.context.json
 * / cdk.json "context"), so `cdk synth` stays offline and the same code deploys any account.
 * README, Custom domain and Safeguards.
 */
export interface DeploymentSettings {
  /** The API's own domain (`api.example.com`) with its ACM certificate in the stack's region. */
  domain: CustomDomainSettings | null;
  /**
   * The dashboard's own domain (`dashboard.example.com`) with its ACM certificate in us-east-1,
   * the only region CloudFront takes certificates from.
   */
  dashboardDomain: CustomDomainSettings | null;
  /**
   * A web ACL of scope CLOUDFRONT (so in us-east-1: `arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>`),
   * made beforehand or by AWS Firewall Manager, for the dashboard's distribution.
   */
  dashboardWebAclArn: string | null;
  /** Subscribed to the alarm topic by email (AWS sends a confirmation mail first). */
  alarmEmail: string | null;
  /**
   * The address the dashboard mails invitations from (`no-reply@example.com`), through SES: the
   * address or its domain must be an identity verified in the stack's region. Without it nothing
   * is mailed, and the inviter sends the link the page shows.
   */
  mailFrom: string | null;
  /**
   * A backup vault in a second region (`arn:aws:backup:<region>:<account>:backup-vault:<name>`,
   * created beforehand): each daily backup of the table is copied there too.
   */
  backupCopyVaultArn: string | null;
}

export interface CustomDomainSettings {
  domainName: string;
  certificateArn: string;
  /** The Route 53 zone to write the alias record in; without it the record is added by hand (README). */
  hostedZone: { id: string; name: string } | null;
}

export const NO_DEPLOYMENT_SETTINGS: DeploymentSettings = { domain: null, dashboardDomain: null, dashboardWebAclArn: null, alarmEmail: null, mailFrom: null, backupCopyVaultArn: null };

export function deploymentSettings(node: Node): DeploymentSettings {
  const text = (name: string): string | null => {
    const value: unknown = node.tryGetContext(name);
    if (value === undefined || value === null || value === '') return null;
    if (typeof value !== 'string') throw new Error(`Context ${name} must be a string, not ${JSON.stringify(value)}`);
    return value.trim();
  };
  const hostedZoneId = text('hostedZoneId');
  const hostedZoneName = text('hostedZoneName');
  /** A domain and its certificate, both or neither; the zone, when given, holds its alias records. */
  const customDomain = (domainKey: string, certificateKey: string, certificateRegion?: { region: string; why: string }): CustomDomainSettings | null => {
    const domainName = text(domainKey);
    const certificateArn = text(certificateKey);
    if ((domainName === null) !== (certificateArn === null)) throw new Error(`Context ${domainKey} and ${certificateKey} go together: pass both or neither`);
    if (domainName === null || certificateArn === null) return null;
    if (!/^(?!-)[a-z0-9-]{1,63}(\.(?!-)[a-z0-9-]{1,63})+$/.test(domainName)) throw new Error(`Context ${domainKey} ${JSON.stringify(domainName)} is not a lower-case domain name`);
    const arn = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[\w-]+$/.exec(certificateArn);
    if (!arn) throw new Error(`Context ${certificateKey} ${JSON.stringify(certificateArn)} is not an ACM certificate ARN`);
    if (certificateRegion && arn[1] !== certificateRegion.region) throw new Error(`Context ${certificateKey} is in ${arn[1]}; it must be in ${certificateRegion.region}: ${certificateRegion.why}`);
    return {
      domainName,
      certificateArn,
      // The zone's own name defaults to the domain's parent: api.example.com is in example.com.
      hostedZone: hostedZoneId !== null ? { id: hostedZoneId, name: hostedZoneName ?? domainName.split('.').slice(1).join('.') } : null,
    };
  };
  // The API's regional domain takes a certificate of the stack's region, which synth may not know.
  const domain = customDomain('domainName', 'certificateArn');
  const dashboardDomain = customDomain('dashboardDomainName', 'dashboardCertificateArn', { region: 'us-east-1', why: 'CloudFront takes certificates from there only' });
  if ((hostedZoneId !== null || hostedZoneName !== null) && domain === null && dashboardDomain === null) {
    throw new Error('Context hostedZoneId/hostedZoneName need domainName and certificateArn, or dashboardDomainName and dashboardCertificateArn');
  }
  if (hostedZoneName !== null && hostedZoneId === null) throw new Error('Context hostedZoneName needs hostedZoneId (the zone is not looked up, so synth stays offline)');
  if (domain !== null && domain.domainName === dashboardDomain?.domainName) throw new Error('Context domainName and dashboardDomainName must differ: the API and the dashboard are two origins');
  const dashboardWebAclArn = text('dashboardWebAclArn');
  if (dashboardWebAclArn !== null && !/^arn:aws[a-z-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[\w-]+\/[\w-]+$/.test(dashboardWebAclArn)) {
    throw new Error(`Context dashboardWebAclArn ${JSON.stringify(dashboardWebAclArn)} is not the ARN of a CloudFront web ACL (arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>)`);
  }
  const alarmEmail = text('alarmEmail');
  if (alarmEmail !== null && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(alarmEmail)) throw new Error(`Context alarmEmail ${JSON.stringify(alarmEmail)} is not an email address`);
  const mailFrom = text('mailFrom');
  // The settings schema's own rule for MAIL_FROM: a bare address, which is also what names its SES identity.
  if (mailFrom !== null && !v.is(SETTINGS.MAIL_FROM, mailFrom)) throw new Error(`Context mailFrom ${JSON.stringify(mailFrom)} is not an email address (a bare one: no display name)`);
  const backupCopyVaultArn = text('backupCopyVaultArn');
  if (backupCopyVaultArn !== null && !/^arn:aws[a-z-]*:backup:[a-z0-9-]+:\d{12}:backup-vault:[\w.-]+$/.test(backupCopyVaultArn)) {
    throw new Error(`Context backupCopyVaultArn ${JSON.stringify(backupCopyVaultArn)} is not a backup vault ARN`);
  }
  return { domain, dashboardDomain, dashboardWebAclArn, alarmEmail, mailFrom, backupCopyVaultArn };
}
