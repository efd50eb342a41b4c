/**
 * The CloudFront Function in front of the dashboard's app (viewer request, cloudfront-js-1.0, so
 * ES5 only): `/` and `/dashboard` go to `/dashboard/`; a path under /dashboard/ without a file
 * extension is one of the app's own routes, answered by index.html (SPA routing), as the local
 * server does. With a custom domain, a request that reached the distribution by another name
 * (its *.cloudfront.net one) is sent to the same path and query on the domain: the dashboard API
 * takes state-changing requests from that one origin only (DASHBOARD_ORIGIN), so a person
 * signing in on the other name would be refused.
 *
 * A function of its own so test/unit/dashboard-edge.test.ts can run the very source CloudFront runs.
 */
export function dashboardViewerRequest(canonicalHost: string | null): string {
  const toCanonicalHost =
    canonicalHost === null
      ? ''
      : // The query's values stay as the viewer sent them (still percent-encoded), as AWS's own
        // query-string examples for CloudFront Functions join them.
        `var h=r.headers.host;if(!h||h.value!==${JSON.stringify(canonicalHost)}){var q=[];for(var k in r.querystring){var p=r.querystring[k];var vs=p.multiValue?p.multiValue:[p];for(var i=0;i<vs.length;i++){q.push(k+'='+vs[i].value);}}` +
        `return moved(${JSON.stringify(`https://${canonicalHost}`)}+u+(q.length?'?'+q.join('&'):''));}`;
  return (
    "function moved(l){return{statusCode:308,statusDescription:'Permanent Redirect',headers:{location:{value:l}}};}" +
    'function handler(event){var r=event.request;var u=r.uri;' +
    toCanonicalHost +
    "if(u==='/'||u==='/dashboard'){return moved('/dashboard/');}" +
    "if(u.indexOf('/dashboard/')===0&&u.split('/').pop().indexOf('.')===-1){r.uri='/dashboard/index.html';}return r;}"
  );
}
