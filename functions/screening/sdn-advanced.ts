import { SaxesParser, type SaxesTagNS } from 'saxes';

/**
 * OFAC's SDN list in its "advanced" XML (sdn_advanced.xml, the Advanced Sanctions List Standard:
 * https://ofac.treasury.gov/sdn-list-data-formats-data-schemas), read for its digital-currency
 * addresses. A document of about 100 MB: it is parsed as it streams in, and only the addresses are
 * kept. The parts read:
 *
 *   Sanctions
 *     DateOfIssue/Year, Month, Day                       when OFAC issued this file
 *     ReferenceValueSets/FeatureTypeValues/FeatureType   ID → "Digital Currency Address - ETH"
 *     DistinctParties/DistinctParty[@FixedRef]           one sanctioned party
 *       Profile/Feature[@FeatureTypeID]/FeatureVersion/VersionDetail   the address itself
 *
 * Elements are matched by local name, whatever namespace OFAC publishes them under (it moved from
 * the UN's to its own Sanctions List Service's). saxes refuses what is not well-formed XML,
 * a download cut short included, so a partial file is never taken for the whole list; it expands
 * no entity a DTD declares.
 */

export const DIGITAL_CURRENCY_FEATURE = 'Digital Currency Address - ';

/** The document is not well-formed XML (a download cut short among others); what the stream
 * itself throws (a connection reset) is not this, and passes as it is. */
export class MalformedXml extends Error {
  override name = 'MalformedXml';
}

export interface SdnAddress {
  /** OFAC's asset code, after "Digital Currency Address - ": `ETH`, `TRX`, `XBT`, `USDT`… */
  asset: string;
  /** The VersionDetail's text, trimmed: the address as OFAC wrote it. */
  value: string;
  /** The DistinctParty's FixedRef (OFAC's entity number), for reports. */
  party: string | null;
}

export interface SdnAdvancedAddresses {
  /** DateOfIssue as YYYY-MM-DD, or null when the file has none. */
  issuedOn: string | null;
  /** How many feature types are digital-currency addresses: none means this is not the file it claims to be. */
  digitalCurrencyTypes: number;
  addresses: SdnAddress[];
}

/** The digital-currency addresses of an sdn_advanced.xml read chunk by chunk; throws on malformed XML. */
export async function readSdnAdvanced(chunks: AsyncIterable<string>): Promise<SdnAdvancedAddresses> {
  const parser = new SaxesParser({ xmlns: true });
  const path: string[] = [];
  const assetOfType = new Map<string, string>();
  /** Features read before FeatureTypeValues (never, in OFAC's order; kept to be sure). */
  const unresolved: { typeId: string; values: string[]; party: string | null }[] = [];
  const addresses: SdnAddress[] = [];
  const issued: Record<string, string> = {};
  let typesRead = false;
  let text: string | null = null;
  let featureType: string | null = null;
  let party: string | null = null;
  let feature: { typeId: string; values: string[] } | null = null;

  const attribute = (tag: SaxesTagNS, name: string): string | null => tag.attributes[name]?.value ?? null;
  const parent = () => path[path.length - 2];

  parser.on('opentag', (tag) => {
    path.push(tag.local);
    switch (tag.local) {
      case 'FeatureType':
        if (parent() === 'FeatureTypeValues') [featureType, text] = [attribute(tag, 'ID'), ''];
        break;
      case 'DistinctParty':
        party = attribute(tag, 'FixedRef');
        break;
      case 'Feature': {
        const typeId = attribute(tag, 'FeatureTypeID');
        feature = typeId === null ? null : { typeId, values: [] };
        break;
      }
      case 'VersionDetail':
        if (feature) text = '';
        break;
      case 'Year':
      case 'Month':
      case 'Day':
        if (parent() === 'DateOfIssue') text = '';
        break;
    }
  });
  parser.on('text', (chunk) => {
    if (text !== null) text += chunk;
  });
  parser.on('closetag', (tag) => {
    switch (tag.local) {
      case 'FeatureType':
        if (featureType !== null && text !== null) {
          const name = text.trim();
          if (name.startsWith(DIGITAL_CURRENCY_FEATURE)) assetOfType.set(featureType, name.slice(DIGITAL_CURRENCY_FEATURE.length).trim());
        }
        featureType = null;
        break;
      case 'FeatureTypeValues':
        typesRead = true;
        break;
      case 'VersionDetail':
        if (feature && text !== null) feature.values.push(text.trim());
        break;
      case 'Feature':
        if (feature) {
          const asset = assetOfType.get(feature.typeId);
          if (asset !== undefined) for (const value of feature.values) addresses.push({ asset, value, party });
          else if (!typesRead) unresolved.push({ ...feature, party });
        }
        feature = null;
        break;
      case 'DistinctParty':
        party = null;
        break;
      case 'Year':
      case 'Month':
      case 'Day':
        if (text !== null) issued[tag.local] = text.trim();
        break;
    }
    // What is captured (a type's name, an address, a date part) has no child elements.
    text = null;
    path.pop();
  });

  const parsed = (step: () => void) => {
    try {
      step();
    } catch (error) {
      throw new MalformedXml((error as Error).message.split('\n')[0], { cause: error });
    }
  };
  for await (const chunk of chunks) parsed(() => parser.write(chunk));
  parsed(() => parser.close());

  for (const { typeId, values, party: from } of unresolved) {
    const asset = assetOfType.get(typeId);
    if (asset !== undefined) for (const value of values) addresses.push({ asset, value, party: from });
  }
  const { Year, Month, Day } = issued;
  const issuedOn = Year && Month && Day ? `${Year.padStart(4, '0')}-${Month.padStart(2, '0')}-${Day.padStart(2, '0')}` : null;
  return { issuedOn, digitalCurrencyTypes: assetOfType.size, addresses };
}
