/** Camunda's LinkableDto entry. */
export interface LinkDto {
  method: string;
  href: string;
  rel: string;
}

/** The `self` link of a created or fetched resource, absolute as Camunda builds it from the request. */
export function selfLink(baseUrl: string, path: string): LinkDto[] {
  return [{ method: 'GET', href: `${baseUrl}${path}`, rel: 'self' }];
}

/** A ResourceOptionsDto: the links whose condition holds, in the given order. */
export function optionLinks(baseUrl: string, links: Array<[rel: string, method: string, path: string, allowed?: boolean]>) {
  return {
    links: links.filter(([, , , allowed]) => allowed !== false).map(([rel, method, path]) => ({ method, href: `${baseUrl}${path}`, rel })),
  };
}
